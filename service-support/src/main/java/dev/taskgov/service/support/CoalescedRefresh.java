package dev.taskgov.service.support;

import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an expensive recomputation (gauges rebuilt from a whole state) at most once per period, and only after
 * {@link #markStale()} said something changed, on a daemon thread of its own: the thread that changes the state
 * (a decider, a consumer) only flips a flag. A failed run is logged and retried at the next period.
 */
public final class CoalescedRefresh implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CoalescedRefresh.class);

    private final AtomicBoolean stale = new AtomicBoolean(true);
    private final ScheduledExecutorService thread;

    /** @param name the thread's name, and what the log says failed */
    public CoalescedRefresh(String name, Duration period, Runnable refresh) {
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
        long periodMillis = Math.max(1, period.toMillis());
        thread.scheduleWithFixedDelay(() -> {
            if (!stale.getAndSet(false)) return;
            try {
                refresh.run();
            } catch (RuntimeException e) {
                // Tried again at the next period; a failed run must not end the schedule.
                stale.set(true);
                LOG.warnf(e, "%s: recomputing failed", name);
            }
        }, periodMillis, periodMillis, TimeUnit.MILLISECONDS);
    }

    /** Something changed: recompute at the next period. */
    public void markStale() {
        stale.set(true);
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
