package dev.taskgov.quota;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.quota.capacity.ClusterCapacity;
import io.smallrye.reactive.messaging.ChannelRegistry;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Test aid of {@link TopologyCatchUpTest}: holds quota-service's view of one cluster at a part of its nodes for as
 * long as the test needs, as a slow consumer would for a moment. Once armed, it pauses the topology channel (SmallRye's
 * pausable channel, which only that test's profile turns on) from inside the channel's own handling of the n-th node,
 * so no further record is handled until the test resumes it. Unarmed (every other test), it does nothing.
 */
@ApplicationScoped
public class PartialView {

    @Inject
    ChannelRegistry channels;

    private volatile ClusterArn cluster;
    private volatile int after;
    private final AtomicInteger seen = new AtomicInteger();
    private final CountDownLatch paused = new CountDownLatch(1);

    /** Pauses the channel once {@code nodes} nodes of the cluster were handled; returns the latch that says it did. */
    CountDownLatch pauseAfter(ClusterArn cluster, int nodes) {
        this.after = nodes;
        this.cluster = cluster;
        return paused;
    }

    void onChange(@Observes ClusterCapacity.CapacityChanged changed) {
        if (changed.nodeName() == null || !changed.cluster().equals(cluster)) return;
        if (seen.incrementAndGet() == after) {
            channels.getPausable("topology").pause();
            paused.countDown();
        }
    }
}
