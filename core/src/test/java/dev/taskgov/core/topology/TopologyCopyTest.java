package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.taskgov.core.topology.TestCluster.P5;
import static dev.taskgov.core.topology.TestCluster.P5_SHAPE;
import static dev.taskgov.core.topology.TestCluster.cluster;
import static dev.taskgov.core.topology.TestCluster.labels;
import static dev.taskgov.core.topology.TestPodSets.pods;
import static dev.taskgov.core.topology.TestPodSets.workload;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;

/** A copy and its original share structure until one changes: each must see only its own changes. */
class TopologyCopyTest {

    private static final List<PodSetRequest> TWO_HOSTS = workload(pods("worker", 2).gpus(8).required(LAYER_3));

    private static TestCluster twoRacks() {
        return cluster().rack("nn-1", "b1", "r1", "n1", "n2").rack("nn-1", "b1", "r2", "n3", "n4");
    }

    @Test
    void changesToTheOriginalAfterACopyDoNotReachTheCopy() {
        Topology original = twoRacks().build();
        original.place(TWO_HOSTS); // capacities of the shape cached before copying
        Topology copy = original.copy();

        original.upsertNode(new Node("n5", null, P5, labels("nn-1", "b1", "r3"), P5_SHAPE, true));
        original.removeNode("n1");
        TestCluster.reserveOn(original, "n2", Resources.accelerators(8));
        original.upsertNode(new Node("n3", null, P5, labels("nn-1", "b1", "r2"), P5_SHAPE, false));

        assertThat(copy.nodes()).isEqualTo(twoRacks().nodes());
        assertThat(copy.place(TWO_HOSTS)).isEqualTo(twoRacks().build().place(TWO_HOSTS));
        assertThat(original.place(TWO_HOSTS)).isEqualTo(TestPodSets.noFit("worker", 1, 2));
    }

    @Test
    void changesToTheCopyDoNotReachTheOriginal() {
        Topology original = twoRacks().build();
        original.place(TWO_HOSTS);
        Topology copy = original.copy();

        copy.removeNode("n4");
        copy.upsertNode(new Node("n9", null, P5, labels("nn-1", "b2", "r9"), P5_SHAPE, true));
        TestCluster.reserveOn(copy, "n1", Resources.accelerators(8));

        assertThat(original.nodes()).isEqualTo(twoRacks().nodes());
        assertThat(original.place(TWO_HOSTS)).isEqualTo(twoRacks().build().place(TWO_HOSTS));
        assertThat(original.free("n1")).isEqualTo(P5_SHAPE);
        assertThat(copy.free("n1")).isEqualTo(P5_SHAPE.minus(Resources.accelerators(8)));
    }
}
