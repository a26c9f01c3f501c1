package dev.taskgov.watcher;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import org.jboss.logging.Logger;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfigBuilder;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;

/**
 * Leader election on a coordination.k8s.io Lease, so that of several watcher replicas only one acts
 * on jobs: {@code onLead} runs when this replica takes the lease, {@code onLose} when it loses or
 * gives it up; a replica that lost it contends again. Stopping releases the lease, so a standby
 * takes over within one retry period instead of a whole lease duration.
 */
final class Leadership {
    private static final Logger LOG = Logger.getLogger(Leadership.class);

    /** Timing of the election, as client-go's leader election names it. */
    record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String leaseName;
    private final String identity;
    private final Timing timing;
    private final Runnable onLead;
    private final Runnable onLose;
    private final AtomicBoolean leading = new AtomicBoolean();
    private ScheduledExecutorService executor;
    private CompletableFuture<?> election;
    private volatile boolean running;

    Leadership(KubernetesClient client, String namespace, String leaseName, String identity, Timing timing,
               Runnable onLead, Runnable onLose) {
        this.client = client;
        this.namespace = namespace;
        this.leaseName = leaseName;
        this.identity = identity;
        this.timing = timing;
        this.onLead = onLead;
        this.onLose = onLose;
    }

    synchronized void start() {
        if (running) return;
        running = true;
        executor = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "job-watcher-leader-election"));
        contend();
    }

    private synchronized void contend() {
        if (!running) return;
        LeaderElector elector = new LeaderElector(client, new LeaderElectionConfigBuilder()
                .withName(leaseName)
                .withLock(new LeaseLock(namespace, leaseName, identity))
                .withLeaseDuration(timing.leaseDuration())
                .withRenewDeadline(timing.renewDeadline())
                .withRetryPeriod(timing.retryPeriod())
                .withReleaseOnCancel(true)
                .withLeaderCallbacks(new LeaderCallbacks(this::lead, this::lose,
                        leader -> LOG.infof("job-watcher leader is now %s (this replica: %s)", leader, identity)))
                .build(), executor);
        election = elector.start();
        // The future ends when leadership is lost (or on stop); contend again unless stopping.
        election.whenComplete((ignored, error) -> {
            if (running) executor.schedule(this::contend, timing.retryPeriod().toMillis(), TimeUnit.MILLISECONDS);
        });
    }

    private void lead() {
        if (leading.compareAndSet(false, true)) {
            LOG.infof("job-watcher replica %s leads: it governs jobs now", identity);
            onLead.run();
        }
    }

    private void lose() {
        if (leading.compareAndSet(true, false)) {
            LOG.infof("job-watcher replica %s stopped leading", identity);
            onLose.run();
        }
    }

    boolean leading() {
        return leading.get();
    }

    String identity() {
        return identity;
    }

    /** Stops contending and gives the lease up (the watcher is stopped first if it was leading). */
    synchronized void stop() {
        if (!running) return;
        running = false;
        if (election != null) election.cancel(true);
        lose();
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
