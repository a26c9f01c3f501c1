package dev.taskgov.topology.capacity;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.taskgov.core.topology.TopologyLevels.HOSTNAME;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_1;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;

class TopologyTreeTest {

    static final Resources P5 = Resources.of(8, 192_000, 2048 * 1024);
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    static Node node(String name, String l1, String l2, String l3, boolean ready) {
        return new Node(name, null, "ml.p5.48xlarge", Map.of(LAYER_1, l1, LAYER_2, l2, LAYER_3, l3, HOSTNAME, name), P5, ready);
    }

    static final List<Node> NODES = List.of(
            node("h1", "nn-1", "nn-b1", "nn-b1-r1", true),
            node("h2", "nn-1", "nn-b1", "nn-b1-r1", true),
            node("h3", "nn-1", "nn-b1", "nn-b1-r2", false),
            node("h4", "nn-2", "nn-b2", "nn-b2-r1", true));

    @Test
    void capacityCountsReadyNodesAndFreeSubtractsHolds() {
        TopologyTree tree = TopologyTree.build(NODES, Map.of("h1", Resources.of(3, 12_000, 96 * 1024)));

        assertThat(tree.capacity()).isEqualTo(ResourceAmounts.full(P5.times(3)));
        assertThat(tree.free()).isEqualTo(ResourceAmounts.full(P5.times(3).minus(Resources.of(3, 12_000, 96 * 1024))));
        assertThat(tree.readyNodes()).isEqualTo(3);
        assertThat(tree.notReadyNodes()).isEqualTo(1);
        assertThat(tree.domains()).extracting(TopologyTree.Domain::value).containsExactly("nn-1", "nn-2");
        TopologyTree.Domain r1 = tree.domains().get(0).children().get(0).children().get(0);
        assertThat(r1.value()).isEqualTo("nn-b1-r1");
        assertThat(r1.free().accelerators()).isEqualByComparingTo("13");
        assertThat(r1.nodes()).extracting(TopologyTree.NodeView::name).containsExactly("h1", "h2");
        TopologyTree.Domain r2 = tree.domains().get(0).children().get(0).children().get(1);
        assertThat(r2.capacity().accelerators()).isEqualByComparingTo("0");
        assertThat(r2.notReadyNodes()).isEqualTo(1);
    }

    @Test
    void holdsAreRequestsTimesPodsAndAreReleasedByFinishOrLaterPreemption() {
        WorkloadHolds holds = new WorkloadHolds();
        holds.submitted("w1", Map.of("worker", Resources.of(1, 4_000, 32 * 1024)));
        holds.admitted("w1", T0, List.of(new WorkloadHolds.PodSetPlacement("worker", Map.of("h1", 8, "h2", 2))));
        holds.admitted("w2", T0, List.of(new WorkloadHolds.PodSetPlacement("worker", Map.of("h1", 1))));

        assertThat(holds.heldPerNode()).isEqualTo(Map.of("h1", Resources.of(8, 32_000, 256 * 1024), "h2", Resources.of(2, 8_000, 64 * 1024)));
        assertThat(holds.admittedWithoutRequests()).containsExactly("w2");

        holds.preempted("w1", T0.minusSeconds(1));
        assertThat(holds.heldPerNode()).containsKey("h1");
        holds.preempted("w1", T0.plusSeconds(5));
        assertThat(holds.heldPerNode()).isEmpty();
        assertThat(holds.admitted("w1", T0.plusSeconds(1), List.of(new WorkloadHolds.PodSetPlacement("worker", Map.of("h1", 1)))))
                .as("an admission older than the preemption").isFalse();
        assertThat(holds.admitted("w1", T0.plusSeconds(9), List.of(new WorkloadHolds.PodSetPlacement("worker", Map.of("h1", 1))))).isTrue();

        holds.finished("w1", T0.plusSeconds(15));
        assertThat(holds.heldPerNode()).isEmpty();
        assertThat(holds.admitted("w1", T0.plusSeconds(12), List.of(new WorkloadHolds.PodSetPlacement("worker", Map.of("h1", 1)))))
                .as("an admission made before the finish, read after it").isFalse();
    }
}
