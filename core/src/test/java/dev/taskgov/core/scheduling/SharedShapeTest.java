package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Alike workloads in a team's queue share one instance of their shape, whoever built theirs: each look-up of a shape
 * (the queue's shape queues, the verdict memo) then finds it by identity instead of comparing pod sets field by field.
 */
class SharedShapeTest {

    private static WorkloadEntry queued(String id, int pods) {
        // a list and pod set of its own per workload, as a decoder builds them
        return WorkloadEntry.queued(new Workload(id, "a", "normal", 10, Instant.EPOCH, List.of(
                new PodSetRequest("worker", pods, Cluster.G5, Resources.accelerators(1), TopologyRequest.NONE))));
    }

    @Test
    void alikeWorkloadsInAQueueShareTheirShapesInstance() {
        TeamQueue q = new TeamQueue("a", true);
        WorkloadEntry first = queued("a-1", 2);
        WorkloadEntry alike = queued("a-2", 2);
        WorkloadEntry other = queued("a-3", 3);
        assertThat(alike.shape()).isNotSameAs(first.shape()).isEqualTo(first.shape());

        q.add(first);
        q.add(alike);
        q.add(other);

        assertThat(alike.shape()).isSameAs(first.shape());
        assertThat(other.shape()).isNotEqualTo(first.shape());
    }

    @Test
    void aShapeThatLeftTheQueueAndCameBackIsSharedAgain() {
        TeamQueue q = new TeamQueue("a", true);
        WorkloadEntry first = queued("a-1", 2);
        q.add(first);
        q.remove(first);

        WorkloadEntry later = queued("a-2", 2);
        WorkloadEntry alike = queued("a-3", 2);
        q.add(later);
        q.add(alike);

        assertThat(alike.shape()).isSameAs(later.shape());
    }
}
