package dev.taskgov.bench;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * The finishes the pipeline has scheduled, at most one per workload: a workload's finish either runs or is taken back
 * by a preemption read meanwhile, never both. (Cancelling the scheduled task alone does not decide it: a task already
 * started is still cancellable, and it would finish a workload the pipeline had just counted as preempted.)
 */
final class PendingFinishes {

    private final ScheduledExecutorService executor;
    private final ConcurrentHashMap<String, Ticket> pending = new ConcurrentHashMap<>();

    /** One scheduled finish; whoever removes it from {@link #pending} decides whether it runs. */
    private static final class Ticket {
        volatile ScheduledFuture<?> task;
    }

    PendingFinishes(ScheduledExecutorService executor) {
        this.executor = executor;
    }

    /** Runs {@code finish} after {@code delayMs} unless {@link #takeBack} takes it back first; replaces one scheduled before. */
    void schedule(String id, long delayMs, Runnable finish) {
        Ticket ticket = new Ticket();
        pending.put(id, ticket);
        ticket.task = executor.schedule(() -> {
            if (pending.remove(id, ticket)) finish.run();
        }, delayMs, TimeUnit.MILLISECONDS);
    }

    /** Takes back the finish scheduled for {@code id}: true when there was one and it will not run. */
    boolean takeBack(String id) {
        Ticket ticket = pending.remove(id);
        if (ticket == null) return false;
        ScheduledFuture<?> task = ticket.task;
        if (task != null) task.cancel(false);
        return true;
    }
}
