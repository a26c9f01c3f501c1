package dev.taskgov.core.scheduling;

import dev.taskgov.core.scheduling.Cluster.Outcome;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Preemption for a topology-constrained preemptor: the victims are chosen per domain of the
 * requested level, and the best one-domain set wins. The fixture has 1-GPU nodes, 4 per rack
 * (n01-n04 rack-0, n05-n08 rack-1); 1-pod workloads without a request fill the tightest rack first.
 */
class TopologyAwarePreemptionTest {

    static final TopologyRequest RACK = TopologyRequest.required(TopologyLevels.LAYER_3);
    static final TopologyRequest PREFER_RACK = TopologyRequest.preferred(TopologyLevels.LAYER_3);

    /** The outcome, and where the preemptor {@code p} runs (empty when it is not admitted). */
    record Result(Outcome outcome, Map<String, Integer> preemptorNodes) {
    }

    record Case(String name, Cluster cluster, Result expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Rack-0: e1 (2 pods, experiment), t1, t2; rack-1: t3, t4, then the newest e2, e3 (experiment). */
    static Cluster oneBigTwoSmall(TopologyRequest preemptor) {
        return Cluster.gpus(8).team("a", 8)
                .submit("e1", "a", 2, "experiment", RACK)
                .submit("t1", "a", 1, "training").submit("t2", "a", 1, "training")
                .submit("t3", "a", 1, "training").submit("t4", "a", 1, "training")
                .submit("e2", "a", 1, "experiment").submit("e3", "a", 1, "experiment")
                .submit("p", "a", 2, "inference", preemptor);
    }

    /** {@link #oneBigTwoSmall}, the preemptor pinned to a rack by a node selector on the layer-3 label. */
    static Cluster oneBigTwoSmallPinned(TopologyRequest preemptor, String rack) {
        return Cluster.gpus(8).team("a", 8)
                .submit("e1", "a", 2, "experiment", RACK)
                .submit("t1", "a", 1, "training").submit("t2", "a", 1, "training")
                .submit("t3", "a", 1, "training").submit("t4", "a", 1, "training")
                .submit("e2", "a", 1, "experiment").submit("e3", "a", 1, "experiment")
                .submit("p", "a", 2, "inference", preemptor, Map.of(TopologyLevels.LAYER_3, rack));
    }

    /** Each rack: two inference pods and two experiment pods; p (inference) wants 3 pods. */
    static Cluster twoProtectedPerRack(TopologyRequest preemptor) {
        return Cluster.gpus(8).team("a", 8)
                .submit("i1", "a", 1, "inference").submit("i2", "a", 1, "inference")
                .submit("e1", "a", 1, "experiment").submit("e2", "a", 1, "experiment")
                .submit("i3", "a", 1, "inference").submit("i4", "a", 1, "inference")
                .submit("e3", "a", 1, "experiment").submit("e4", "a", 1, "experiment")
                .submit("p", "a", 3, "inference", preemptor);
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("required rack: the documented order (two newer workloads of one rack), not the one older victim: both give one rack",
                        oneBigTwoSmall(RACK),
                        result(List.of("e1", "p", "t1", "t2", "t3", "t4"), List.of("e2", "e3"), List.of("e3", "e2"), Map.of("n07", 1, "n08", 1))),
                new Case("preferred rack met by the documented order: fewer victims elsewhere are no reason to depart from it",
                        oneBigTwoSmall(PREFER_RACK),
                        result(List.of("e1", "p", "t1", "t2", "t3", "t4"), List.of("e2", "e3"), List.of("e3", "e2"), Map.of("n07", 1, "n08", 1))),
                new Case("no topology request: the generic order (newest lowest priority first) as before",
                        oneBigTwoSmall(TopologyRequest.NONE),
                        result(List.of("e1", "p", "t1", "t2", "t3", "t4"), List.of("e2", "e3"), List.of("e3", "e2"), Map.of("n07", 1, "n08", 1))),
                new Case("nodeSelector on rack-0, no topology request: the victim inside rack-0, not the newer ones outside",
                        oneBigTwoSmallPinned(TopologyRequest.NONE, "rack-0"),
                        result(List.of("e2", "e3", "p", "t1", "t2", "t3", "t4"), List.of("e1"), List.of("e1"), Map.of("n01", 1, "n02", 1))),
                new Case("nodeSelector on rack-1 with required rack: the two experiments of rack-1, not the one-victim set of rack-0",
                        oneBigTwoSmallPinned(RACK, "rack-1"),
                        result(List.of("e1", "p", "t1", "t2", "t3", "t4"), List.of("e2", "e3"), List.of("e3", "e2"), Map.of("n07", 1, "n08", 1))),
                new Case("required rack: no plan when no single rack can be freed, nothing evicted",
                        twoProtectedPerRack(RACK),
                        result(List.of("e1", "e2", "e3", "e4", "i1", "i2", "i3", "i4"), List.of("p"), List.of(), Map.of())),
                new Case("preferred rack: no rack can be freed, falls back to the generic set and spreads",
                        twoProtectedPerRack(PREFER_RACK),
                        result(List.of("e1", "i1", "i2", "i3", "i4", "p"), List.of("e2", "e3", "e4"), List.of("e4", "e3", "e2"),
                                Map.of("n04", 1, "n07", 1, "n08", 1))));
    }

    static Result result(List<String> admitted, List<String> pending, List<String> preempted, Map<String, Integer> nodes) {
        return new Result(Outcome.of(admitted, pending, preempted), new TreeMap<>(nodes));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void victims(Case c) {
        Cluster.Replay r = c.cluster.replay();
        Map<String, Integer> nodes = new TreeMap<>(r.scheduler().workload("p")
                .filter(v -> v.placement() != null)
                .<Map<String, Integer>>map(v -> v.placement().podSets().get(0).podsPerNode()).orElse(Map.of()));
        assertThat(new Result(r.outcome(), nodes)).isEqualTo(c.expected);
    }
}
