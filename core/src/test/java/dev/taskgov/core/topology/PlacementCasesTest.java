package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.taskgov.core.topology.TestCluster.G5;
import static dev.taskgov.core.topology.TestCluster.P5;
import static dev.taskgov.core.topology.TestCluster.P5_SHAPE;
import static dev.taskgov.core.topology.TestCluster.cluster;
import static dev.taskgov.core.topology.TestCluster.labels;
import static dev.taskgov.core.topology.TestPodSets.at;
import static dev.taskgov.core.topology.TestPodSets.domain;
import static dev.taskgov.core.topology.TestPodSets.noFit;
import static dev.taskgov.core.topology.TestPodSets.placed;
import static dev.taskgov.core.topology.TestPodSets.pods;
import static dev.taskgov.core.topology.TestPodSets.workload;
import static dev.taskgov.core.topology.TopologyLevels.HOSTNAME;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_1;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;

/** Named placements: a cluster, a workload's pod sets, and the whole expected result. */
class PlacementCasesTest {

    private static Arguments placement(String name, TestCluster cluster, List<PodSetRequest> podSets, PlacementResult expected) {
        return Arguments.of(name, cluster, podSets, expected);
    }

    /** Two 8-GPU hosts per rack, racks r1 and r2 in block b1. */
    private static TestCluster twoRacks() {
        return cluster()
                .rack("nn-1", "b1", "r1", "n1", "n2")
                .rack("nn-1", "b1", "r2", "n3", "n4");
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                placement("fits one rack, largest host first, last host by best fit",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1", "n2"),
                        workload(pods("worker", 3).gpus(2).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r1"), "n1", 2, "n2", 1))),
                placement("tightest rack wins over the first rack",
                        cluster().rack("nn-1", "b1", "r1", "n1", "n2", "n3").rack("nn-1", "b1", "r2", "n4", "n5"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n4", 1, "n5", 1))),
                placement("tie between racks goes to the rack inside the tightest block",
                        cluster().rack("nn-1", "b1", "b1-r1", "n1", "n2").rack("nn-1", "b1", "b1-r2", "n3", "n4", "n5")
                                .rack("nn-1", "b2", "b2-r1", "n6", "n7"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "b2-r1"), "n6", 1, "n7", 1))),
                placement("tie between blocks goes to the tightest layer-1 domain",
                        cluster().rack("nn-1", "b1", "b1-r1", "n1", "n2").rack("nn-1", "b3", "b3-r1", "n3", "n4", "n5")
                                .rack("nn-2", "b2", "b2-r1", "n6", "n7"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "b2-r1"), "n6", 1, "n7", 1))),
                placement("full tie goes to the smallest full path, not the smallest own label",
                        cluster().rack("nn-1", "z", "a", "n1", "n2").rack("nn-1", "a", "z", "n3", "n4"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "z"), "n3", 1, "n4", 1))),
                placement("too big for any rack: no fit with the exact message",
                        twoRacks(),
                        workload(pods("worker", 3).gpus(8).required(LAYER_3)),
                        noFit("worker", 2, 3)),
                placement("required layer-2 block over two racks",
                        twoRacks().rack("nn-1", "b2", "r3", "n5"),
                        workload(pods("worker", 3).gpus(8).required(LAYER_2)),
                        placed(at("worker", domain(LAYER_2, "b1"), "n1", 1, "n2", 1, "n3", 1))),
                placement("required host: one node or nothing",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1", "n2"),
                        workload(pods("worker", 5).gpus(1).required(HOSTNAME)),
                        noFit("worker", 4, 5)),
                placement("no node of the instance type: fits nothing",
                        twoRacks(),
                        workload(pods("worker", 1).type(G5).gpus(1).required(LAYER_3)),
                        noFit("worker", 0, 1)),
                placement("preferred rack falls back to the block",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1").rack("nn-1", "b1", "r2", "n2")
                                .rack("nn-1", "b2", "r3", "n3").rack("nn-1", "b2", "r4", "n4").rack("nn-1", "b2", "r5", "n5"),
                        workload(pods("worker", 6).gpus(1).preferred(LAYER_3)),
                        placed(at("worker", domain(LAYER_2, "b1"), "n1", 4, "n2", 2))),
                placement("preferred rack falls back to layer-1, filling the largest block first",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1").rack("nn-1", "b1", "r2", "n2")
                                .rack("nn-1", "b2", "r3", "n3").rack("nn-1", "b2", "r4", "n4"),
                        workload(pods("worker", 10).gpus(1).preferred(LAYER_3)),
                        placed(at("worker", domain(LAYER_1, "nn-1"), "n1", 4, "n2", 4, "n3", 2))),
                placement("preferred spreads over as few layer-1 domains as possible",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1").rack("nn-2", "b2", "r2", "n2").rack("nn-3", "b3", "r3", "n3")
                                .used("n2", Resources.accelerators(2)).used("n3", Resources.accelerators(1)),
                        workload(pods("worker", 6).gpus(1).preferred(LAYER_3)),
                        placed(at("worker", null, "n1", 4, "n2", 2))),
                placement("preferred larger than the cluster: no fit names the total",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1").rack("nn-2", "b2", "r2", "n2"),
                        workload(pods("worker", 9).gpus(1).preferred(LAYER_3)),
                        noFit("worker", 8, 9)),
                placement("preferred host climbs to the rack",
                        twoRacks().used("n1", Resources.accelerators(4)),
                        workload(pods("worker", 12).gpus(1).preferred(HOSTNAME)),
                        placed(at("worker", domain(LAYER_3, "r1"), "n1", 4, "n2", 8))),
                placement("no topology request: best fit from the whole cluster",
                        cluster().gpus(4).rack("nn-1", "b1", "r1", "n1", "n2", "n3").rack("nn-2", "b2", "r2", "n4"),
                        workload(pods("worker", 3).gpus(1)),
                        placed(at("worker", null, "n4", 3))),
                placement("fewest racks before fewest hosts",
                        cluster().gpus(3).rack("nn-1", "b1", "r1", "n1", "n2", "n3", "n4").gpus(8).rack("nn-1", "b1", "r2", "n5"),
                        workload(pods("worker", 10).gpus(1).required(LAYER_2)),
                        placed(at("worker", domain(LAYER_2, "b1"), "n1", 3, "n2", 3, "n3", 3, "n4", 1))),
                placement("largest rack first, the last rack by best fit",
                        cluster().rack("nn-1", "b1", "r1", "n1").gpus(6).rack("nn-1", "b1", "r2", "n2").gpus(3).rack("nn-1", "b1", "r3", "n3"),
                        workload(pods("worker", 11).gpus(1).required(LAYER_2)),
                        placed(at("worker", domain(LAYER_2, "b1"), "n1", 8, "n3", 3))),
                placement("master and workers: workers see what the master took",
                        cluster().rack("nn-1", "b1", "r1", "n1").rack("nn-1", "b1", "r2", "n2"),
                        workload(pods("master", 1).gpus(1), pods("workers", 8).gpus(1).required(LAYER_3)),
                        placed(at("master", null, "n1", 1), at("workers", domain(LAYER_3, "r2"), "n2", 8))),
                placement("master and workers: all or nothing, no fit names the workers",
                        cluster().rack("nn-1", "b1", "r1", "n1").rack("nn-1", "b1", "r2", "n2"),
                        workload(pods("master", 1).gpus(1), pods("workers", 9).gpus(1).required(LAYER_3)),
                        noFit("workers", 8, 9)),
                placement("not-ready nodes hold nothing",
                        cluster().ready(false).rack("nn-1", "b1", "r1", "n1").ready(true).rack("nn-1", "b1", "r1", "n2")
                                .rack("nn-1", "b1", "r2", "n3", "n4"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n3", 1, "n4", 1))),
                placement("nodes of other instance types do not count",
                        cluster().type(G5).rack("nn-1", "b1", "r1", "g1", "g2").type(P5).rack("nn-1", "b1", "r1", "n1")
                                .rack("nn-1", "b1", "r2", "n2", "n3"),
                        workload(pods("worker", 2).gpus(1).required(LAYER_3).type(G5)),
                        placed(at("worker", G5, domain(LAYER_3, "r1"), "g1", 2))),
                placement("nodes of other instance types in a rack add nothing to it",
                        cluster().type(G5).rack("nn-1", "b1", "r1", "g1", "g2").type(P5).rack("nn-1", "b1", "r1", "n1")
                                .rack("nn-1", "b1", "r2", "n2", "n3"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n2", 1, "n3", 1))),
                placement("vCPU, not accelerators, is the limit",
                        twoRacks().rack("nn-1", "b1", "r2", "n5"),
                        workload(pods("worker", 6).gpus(1).vcpu(64).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r1"), "n1", 3, "n2", 3))),
                placement("memory is the limit",
                        twoRacks(),
                        workload(pods("worker", 3).gpus(1).memoryGiB(1024).required(HOSTNAME)),
                        noFit("worker", 2, 3)),
                placement("pods that request nothing fit on one ready node",
                        cluster().ready(false).rack("nn-1", "b1", "r1", "n1").ready(true).rack("nn-1", "b1", "r1", "n2"),
                        workload(pods("sidecar", 5).required(HOSTNAME)),
                        placed(at("sidecar", domain(HOSTNAME, "n2"), "n2", 5))),
                placement("reserve then release restores the free capacity",
                        twoRacks().then(t -> {
                            List<PodSetRequest> w = workload(pods("w", 3).gpus(8));
                            Placement p = ((PlacementResult.Placed) t.place(w)).placement();
                            t.reserve(w, p);
                            t.release(w, p);
                        }),
                        workload(pods("worker", 4).gpus(8).required(LAYER_2)),
                        placed(at("worker", domain(LAYER_2, "b1"), "n1", 1, "n2", 1, "n3", 1, "n4", 1))),
                placement("reserved pods push the next job to another rack",
                        twoRacks().then(t -> {
                            List<PodSetRequest> w = workload(pods("w", 1).gpus(4));
                            t.reserve(w, ((PlacementResult.Placed) t.place(w)).placement());
                        }),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n3", 1, "n4", 1))),
                placement("upsertNode making a node not ready",
                        twoRacks().then(t -> t.upsertNode(new Node("n1", null, P5, labels("nn-1", "b1", "r1"), P5_SHAPE, false))),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n3", 1, "n4", 1))),
                placement("upsertNode keeps what is reserved on the node",
                        twoRacks().used("n1", Resources.accelerators(8))
                                .then(t -> t.upsertNode(new Node("n1", "i-1", P5, labels("nn-1", "b1", "r1"), P5_SHAPE, true))),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r2"), "n3", 1, "n4", 1))),
                placement("upsertNode moving a node to another rack",
                        twoRacks().then(t -> t.upsertNode(new Node("n3", null, P5, labels("nn-1", "b1", "r1"), P5_SHAPE, true))),
                        workload(pods("worker", 3).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r1"), "n1", 1, "n2", 1, "n3", 1))),
                placement("removeNode takes its capacity away",
                        twoRacks().then(t -> t.removeNode("n4")),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, "r1"), "n1", 1, "n2", 1))),
                placement("missing layer labels are the empty value",
                        cluster().node("n1", Map.of()).node("n2", Map.of()).rack("nn-1", "b1", "r1", "n3"),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3)),
                        placed(at("worker", domain(LAYER_3, ""), "n1", 1, "n2", 1))),
                placement("hostname label absent: the node name is the host domain",
                        twoRacks(),
                        workload(pods("worker", 8).gpus(1).required(HOSTNAME)),
                        placed(at("worker", domain(HOSTNAME, "n1"), "n1", 8))),
                placement("hostname label present: it names the host domain",
                        cluster().node("ip-10-0-0-1", Map.of(TopologyLevels.LAYER_1, "nn-1", HOSTNAME, "host-a")),
                        workload(pods("worker", 2).gpus(4).required(HOSTNAME)),
                        placed(at("worker", domain(HOSTNAME, "host-a"), "ip-10-0-0-1", 2))),
                placement("required layer-1 spreads over its blocks",
                        cluster().rack("nn-1", "b1", "r1", "n1").rack("nn-1", "b2", "r2", "n2").rack("nn-2", "b3", "r3", "n3"),
                        workload(pods("worker", 12).gpus(1).required(LAYER_1)),
                        placed(at("worker", domain(LAYER_1, "nn-1"), "n1", 8, "n2", 4)))
        );
    }

    private static final String POOL = "example.com/pool";

    /** Racks r1 (n1, n2) in block b1, r2 (n3) and r3 (n4, n5) in block b2; n2 and n4 in pool "a". */
    private static TestCluster twoBlocks() {
        return cluster()
                .node("n1", labels("nn-1", "b1", "r1"))
                .node("n2", withPool(labels("nn-1", "b1", "r1"), "a"))
                .rack("nn-1", "b2", "r2", "n3")
                .node("n4", withPool(labels("nn-1", "b2", "r3"), "a"))
                .rack("nn-1", "b2", "r3", "n5");
    }

    private static Map<String, String> withPool(Map<String, String> labels, String pool) {
        labels.put(POOL, pool);
        return labels;
    }

    /** A node selector is a hard filter: nodes that do not carry its labels hold none of the pods. */
    static Stream<Arguments> selectorCases() {
        return Stream.of(
                placement("nodeSelector on a rack pins the pods there, not on the first rack by path",
                        twoRacks(),
                        workload(pods("worker", 2).gpus(8).selector(LAYER_3, "r2")),
                        placed(at("worker", null, "n3", 1, "n4", 1))),
                placement("nodeSelector on a block with required rack: the best rack inside the block",
                        twoBlocks(),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3).selector(LAYER_2, "b2")),
                        placed(at("worker", domain(LAYER_3, "r3"), "n4", 1, "n5", 1))),
                placement("nodeSelector on a rack with required block: the block of the rack, pods only in the rack",
                        twoBlocks(),
                        workload(pods("worker", 2).gpus(4).required(LAYER_2).selector(LAYER_3, "r2")),
                        placed(at("worker", domain(LAYER_2, "b2"), "n3", 2))),
                placement("nodeSelector on a full rack: no fit names the selector",
                        twoRacks().used("n3", Resources.accelerators(8)),
                        workload(pods("worker", 2).gpus(8).required(LAYER_3).selector(LAYER_3, "r2")),
                        noFit("worker", 1, 2, "{" + LAYER_3 + "=r2}")),
                placement("nodeSelector on a rack with no such rack: fits nothing",
                        twoRacks(),
                        workload(pods("worker", 1).gpus(1).selector(LAYER_3, "r9")),
                        noFit("worker", 0, 1, "{" + LAYER_3 + "=r9}")),
                placement("nodeSelector on a hostname: only that node",
                        twoRacks(),
                        workload(pods("worker", 2).gpus(4).selector(HOSTNAME, "n4")),
                        placed(at("worker", null, "n4", 2))),
                placement("nodeSelector on a rack value shared by two blocks matches both racks",
                        cluster().rack("nn-1", "b1", "r", "n1").rack("nn-1", "b2", "r", "n2").rack("nn-1", "b2", "x", "n3"),
                        workload(pods("worker", 2).gpus(8).selector(LAYER_3, "r")),
                        placed(at("worker", null, "n1", 1, "n2", 1))),
                placement("nodeSelector on another label (slow path): only the nodes carrying it",
                        twoBlocks(),
                        workload(pods("worker", 2).gpus(8).selector(POOL, "a")),
                        placed(at("worker", null, "n2", 1, "n4", 1))),
                placement("nodeSelector on a topology label and another label: both must match",
                        twoBlocks(),
                        workload(pods("worker", 2).gpus(8).selector(POOL, "a").selector(LAYER_2, "b2")),
                        noFit("worker", 1, 2, "{" + POOL + "=a, " + LAYER_2 + "=b2}")),
                placement("nodeSelector on the instance-type label matches the node's instance type",
                        twoRacks(),
                        workload(pods("worker", 1).gpus(8).selector(Node.INSTANCE_TYPE_LABEL, P5).selector(LAYER_3, "r2")),
                        placed(at("worker", null, "n3", 1))),
                placement("master pinned to a host, workers pinned to a rack: each pod set its own nodes",
                        twoRacks(),
                        workload(pods("master", 1).gpus(8).selector(HOSTNAME, "n3"), pods("workers", 2).gpus(8).required(LAYER_3).selector(LAYER_3, "r1")),
                        placed(at("master", null, "n3", 1), at("workers", domain(LAYER_3, "r1"), "n1", 1, "n2", 1))),
                placement("workers pinned to a rack see what the master took there",
                        twoRacks(),
                        workload(pods("master", 1).gpus(8).selector(HOSTNAME, "n1"), pods("workers", 2).gpus(8).selector(LAYER_3, "r1")),
                        noFit("workers", 1, 2, "{" + LAYER_3 + "=r1}"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource({"cases", "selectorCases"})
    void places(String name, TestCluster cluster, List<PodSetRequest> podSets, PlacementResult expected) {
        Topology topology = cluster.build();
        List<Node> before = topology.nodes();
        Map<TopologyDomain, Long> capacityBefore = topology.capacityByDomain(podSets.get(0), HOSTNAME);

        assertThat(topology.place(podSets)).isEqualTo(expected);

        // place() is pure: nothing reserved, nothing changed.
        assertThat(topology.nodes()).isEqualTo(before);
        assertThat(topology.capacityByDomain(podSets.get(0), HOSTNAME)).isEqualTo(capacityBefore);
    }
}
