package dev.taskgov.core.topology;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.topology.TestPodSets.pods;
import static dev.taskgov.core.topology.TestPodSets.workload;
import static dev.taskgov.core.topology.TopologyLevels.LAYER_3;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PodSetValidationTest {

    private static final String LEVELS = TopologyLevels.ALL.toString();

    static Stream<Arguments> podSetCases() {
        return Stream.of(
                Arguments.of("valid master and workers",
                        workload(pods("master", 1).gpus(1), pods("workers", 4).gpus(8).required(LAYER_3)), List.of()),
                Arguments.of("no pod set", List.of(), List.of("podSets: must contain at least one pod set")),
                Arguments.of("count below one",
                        workload(pods("worker", 0).gpus(1)), List.of("podSets[0].count: must be at least 1, was 0")),
                Arguments.of("two pod sets with one name",
                        workload(pods("worker", 1), pods("worker", 2)),
                        List.of("podSets[1].name: \"worker\" is already the name of podSets[0]; pod set names must be unique within a workload")),
                Arguments.of("unknown required level",
                        workload(pods("worker", 1).required("topology.k8s.aws/network-node-layer-4")),
                        List.of("podSets[0].requiredTopology: unknown topology level \"topology.k8s.aws/network-node-layer-4\", must be one of " + LEVELS)),
                Arguments.of("unknown preferred level",
                        workload(pods("worker", 1).preferred("rack")),
                        List.of("podSets[0].preferredTopology: unknown topology level \"rack\", must be one of " + LEVELS)),
                Arguments.of("node selector with an empty value",
                        workload(pods("worker", 1).selector(LAYER_3, "")),
                        List.of("podSets[0].nodeSelector[" + LAYER_3 + "]: must not be empty (a node must carry the label with a value)")),
                Arguments.of("node selector naming another instance type",
                        workload(pods("worker", 1).selector(Node.INSTANCE_TYPE_LABEL, TestCluster.G5)),
                        List.of("podSets[0].nodeSelector[" + Node.INSTANCE_TYPE_LABEL + "]: is \"ml.g5.8xlarge\" but the pod set's"
                                + " instanceType is \"ml.p5.48xlarge\"; no node can match both")),
                Arguments.of("valid node selector on a rack",
                        workload(pods("worker", 1).selector(LAYER_3, "r1")), List.of()),
                Arguments.of("blank name and instance type",
                        List.of(new PodSetRequest(" ", 1, "", null, null)),
                        List.of("podSets[0].name: must not be blank", "podSets[0].instanceType: must not be blank")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("podSetCases")
    void podSets(String name, List<PodSetRequest> podSets, List<String> expected) {
        assertThat(PodSetValidation.violations(podSets)).isEqualTo(expected);
        if (expected.isEmpty()) {
            PodSetValidation.requireValid(podSets);
        } else {
            assertThatThrownBy(() -> PodSetValidation.requireValid(podSets))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage(String.join("; ", expected));
        }
    }

    static Stream<Arguments> topologyFieldCases() {
        return Stream.of(
                Arguments.of("neither", null, null, List.of()),
                Arguments.of("required only", LAYER_3, null, List.of()),
                Arguments.of("preferred only", null, LAYER_3, List.of()),
                Arguments.of("both required and preferred", LAYER_3, LAYER_3,
                        List.of("podSets[2].requiredTopology and podSets[2].preferredTopology: at most one may be set, both were")),
                Arguments.of("blank required", "", null,
                        List.of("podSets[2].requiredTopology: must name a topology level, one of " + LEVELS)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("topologyFieldCases")
    void topologyFields(String name, String required, String preferred, List<String> expected) {
        assertThat(PodSetValidation.topologyViolations("podSets[2]", required, preferred)).isEqualTo(expected);
        if (expected.isEmpty()) {
            TopologyRequest r = PodSetValidation.topologyRequest("podSets[2]", required, preferred);
            assertThat(r.level()).isEqualTo(required != null ? required : preferred);
        } else {
            assertThatThrownBy(() -> PodSetValidation.topologyRequest("podSets[2]", required, preferred))
                    .isInstanceOf(IllegalArgumentException.class).hasMessage(String.join("; ", expected));
        }
    }
}
