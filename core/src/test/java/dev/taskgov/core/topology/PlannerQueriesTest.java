package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static dev.taskgov.core.topology.TestCluster.cluster;
import static dev.taskgov.core.topology.TestPodSets.pods;
import static dev.taskgov.core.topology.TopologyLevels.HOSTNAME;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_2;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The queries a preemption planner uses: domainOf and capacityByDomain. */
class PlannerQueriesTest {

    private static final PodSetRequest EIGHT_GPUS = pods("worker", 2).gpus(8).required(LAYER_3).build();

    /** Racks r1 {n1, n2} in b1 and r1 {n3, n4} in b2 (one rack label under two blocks); n1 is full. */
    private static Topology cluster2() {
        return cluster().rack("nn-1", "b1", "r1", "n1", "n2").rack("nn-1", "b2", "r1", "n3", "n4")
                .used("n1", Resources.accelerators(8)).build();
    }

    private static TopologyDomain domain(String level, String... path) {
        return new TopologyDomain(level, List.of(path));
    }

    private static Map<TopologyDomain, Long> capacities(Object... domainThenCapacity) {
        Map<TopologyDomain, Long> m = new LinkedHashMap<>();
        for (int i = 0; i < domainThenCapacity.length; i += 2) {
            m.put((TopologyDomain) domainThenCapacity[i], ((Number) domainThenCapacity[i + 1]).longValue());
        }
        return m;
    }

    static Stream<Arguments> queries() {
        return Stream.of(
                Arguments.of("domainOf a node at layer-2", (Function<Topology, Object>) t -> t.domainOf("n3", LAYER_2),
                        domain(LAYER_2, "nn-1", "b2")),
                Arguments.of("domainOf a node at the host level", (Function<Topology, Object>) t -> t.domainOf("n3", HOSTNAME),
                        domain(HOSTNAME, "nn-1", "b2", "r1", "n3")),
                Arguments.of("domainOf an unknown node is null", (Function<Topology, Object>) t -> String.valueOf(t.domainOf("nx", LAYER_3)),
                        "null"),
                Arguments.of("capacity per rack: one rack label under two blocks is two domains",
                        (Function<Topology, Object>) t -> t.capacityByDomain(EIGHT_GPUS, LAYER_3),
                        capacities(domain(LAYER_3, "nn-1", "b1", "r1"), 1, domain(LAYER_3, "nn-1", "b2", "r1"), 2)),
                Arguments.of("capacity per rack if a victim on n1 were evicted",
                        (Function<Topology, Object>) t -> t.capacityByDomain(EIGHT_GPUS, LAYER_3, Map.of("n1", Resources.accelerators(8))),
                        capacities(domain(LAYER_3, "nn-1", "b1", "r1"), 2, domain(LAYER_3, "nn-1", "b2", "r1"), 2)),
                Arguments.of("capacity per rack of a pod set pinned to block b2: the other rack holds none",
                        (Function<Topology, Object>) t -> t.capacityByDomain(pods("worker", 2).gpus(8).selector(LAYER_2, "b2").build(), LAYER_3),
                        capacities(domain(LAYER_3, "nn-1", "b1", "r1"), 0, domain(LAYER_3, "nn-1", "b2", "r1"), 2)),
                Arguments.of("capacity per rack of a pod set pinned to host n2, if n1's victim were evicted (slow path)",
                        (Function<Topology, Object>) t -> t.capacityByDomain(pods("worker", 2).gpus(8).selector(HOSTNAME, "n2").build(),
                                LAYER_3, Map.of("n1", Resources.accelerators(8))),
                        capacities(domain(LAYER_3, "nn-1", "b1", "r1"), 1, domain(LAYER_3, "nn-1", "b2", "r1"), 0)),
                Arguments.of("capacity of another instance type: no domains",
                        (Function<Topology, Object>) t -> t.capacityByDomain(pods("w", 1).type(TestCluster.G5).build(), LAYER_3),
                        Map.of()),
                Arguments.of("free resources of a node", (Function<Topology, Object>) t -> t.free("n1"),
                        TestCluster.P5_SHAPE.minus(Resources.accelerators(8))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("queries")
    void answers(String name, Function<Topology, Object> query, Object expected) {
        assertThat(query.apply(cluster2())).isEqualTo(expected);
    }

    @Test
    void unknownLevelIsAClearError() {
        Topology t = cluster2();
        String levels = TopologyLevels.ALL.toString();
        assertThatThrownBy(() -> t.capacityByDomain(EIGHT_GPUS, "rack"))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("level must be one of " + levels + ", was rack");
        assertThatThrownBy(() -> t.place(List.of(pods("worker", 1).required("rack").build())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("podSets[0].requiredTopology: unknown topology level \"rack\", must be one of " + levels);
        assertThatThrownBy(() -> t.place(List.of(pods("worker", 0).build())))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("podSets[0].count: must be at least 1, was 0");
    }
}
