package dev.taskgov.core.topology;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.taskgov.core.topology.TestCluster.cluster;
import static dev.taskgov.core.topology.TestPodSets.at;
import static dev.taskgov.core.topology.TestPodSets.domain;
import static dev.taskgov.core.topology.TestPodSets.noFit;
import static dev.taskgov.core.topology.TestPodSets.placed;
import static dev.taskgov.core.topology.TestPodSets.pods;
import static dev.taskgov.core.topology.TestPodSets.workload;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_1;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;

/** The placements the public scenarios topology-required-rack and topology-preferred-fallback expect. */
class PublicScenarioPlacementTest {

    /** Places a workload and, when it fits, reserves it (as admission would). */
    private static PlacementResult admit(Topology t, List<PodSetRequest> podSets) {
        PlacementResult r = t.place(podSets);
        if (r instanceof PlacementResult.Placed p) t.reserve(podSets, p.placement());
        return r;
    }

    @Test
    void topologyRequiredRack() {
        Topology t = cluster()
                .rack("nn-1", "nn-b1", "nn-b1-r1", "p5-b1r1h1", "p5-b1r1h2")
                .rack("nn-1", "nn-b1", "nn-b1-r2", "p5-b1r2h1", "p5-b1r2h2")
                .rack("nn-1", "nn-b2", "nn-b2-r1", "p5-b2r1h1", "p5-b2r1h2")
                .rack("nn-1", "nn-b2", "nn-b2-r2", "p5-b2r2h1", "p5-b2r2h2")
                .build();

        assertThat(admit(t, workload(pods("worker", 2).gpus(8).required(LAYER_3))))
                .isEqualTo(placed(at("worker", domain(LAYER_3, "nn-b1-r1"), "p5-b1r1h1", 1, "p5-b1r1h2", 1)));
        assertThat(admit(t, workload(pods("worker", 3).gpus(8).required(LAYER_3))))
                .isEqualTo(noFit("worker", 2, 3));
        assertThat(admit(t, workload(pods("worker", 2).gpus(8).required(LAYER_3))))
                .isEqualTo(placed(at("worker", domain(LAYER_3, "nn-b1-r2"), "p5-b1r2h1", 1, "p5-b1r2h2", 1)));
        assertThat(admit(t, workload(pods("worker", 3).gpus(8).required(LAYER_3))))
                .isEqualTo(noFit("worker", 2, 3));
        assertThat(admit(t, workload(pods("worker", 3).gpus(8).preferred(LAYER_3))))
                .isEqualTo(placed(at("worker", domain(LAYER_2, "nn-b2"),
                        "p5-b2r1h1", 1, "p5-b2r1h2", 1, "p5-b2r2h1", 1)));
    }

    @Test
    void topologyPreferredFallback() {
        Topology t = cluster().gpus(4)
                .rack("nn-1", "nn-b1", "nn-b1-r1", "g-b1r1")
                .rack("nn-1", "nn-b1", "nn-b1-r2", "g-b1r2")
                .rack("nn-1", "nn-b1", "nn-b1-r3", "g-b1r3")
                .rack("nn-1", "nn-b2", "nn-b2-r1", "g-b2r1")
                .rack("nn-1", "nn-b2", "nn-b2-r2", "g-b2r2")
                .rack("nn-1", "nn-b2", "nn-b2-r3", "g-b2r3")
                .build();

        assertThat(admit(t, workload(pods("worker", 6).gpus(1).preferred(LAYER_3))))
                .isEqualTo(placed(at("worker", domain(LAYER_2, "nn-b1"), "g-b1r1", 4, "g-b1r2", 2)));
        // 18 free: b1 has 6 (r2: 2, r3: 4), b2 has 12; 16 pods fit only the layer-1 domain:
        // all of b2, then the remaining 4 in the rack of b1 that holds them (r3).
        assertThat(admit(t, workload(pods("worker", 16).gpus(1).preferred(LAYER_3))))
                .isEqualTo(placed(at("worker", domain(LAYER_1, "nn-1"),
                        "g-b1r3", 4, "g-b2r1", 4, "g-b2r2", 4, "g-b2r3", 4)));
    }
}
