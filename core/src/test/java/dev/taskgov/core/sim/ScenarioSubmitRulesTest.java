package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Which problems of a submit step make a scenario file invalid (exit 2, with the JSON path) and
 * which only make the workload Rejected when it replays, as the live services reject it.
 */
class ScenarioSubmitRulesTest {

    /** What replaying a one-submission scenario gives: a file error, or the workload's final state. */
    sealed interface Outcome {
    }

    record FileError(String path, String problem) implements Outcome {
    }

    record Replayed(String state, String reason, String message) implements Outcome {
    }

    /** {@code change} edits the one step, {@code {"submit": ...}}. */
    record Case(String name, Consumer<ObjectNode> change, Outcome expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static final String L3 = "topology.k8s.aws/network-node-layer-3";

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a good workload is admitted", s -> { }, new Replayed("Admitted", null, "admitted")),
                new Case("count 0 is rejected", s -> podSet(s).put("count", 0),
                        rejected("podSets[0].count: must be >= 1, was 0")),
                new Case("a negative request is rejected", s -> ((ObjectNode) podSet(s).get("requests")).put("accelerators", -1),
                        rejected("podSets[0].requests.accelerators: must not be negative, was -1")),
                new Case("required and preferred topology together are rejected",
                        s -> podSet(s).put("requiredTopology", L3).put("preferredTopology", L3),
                        rejected("podSets[0]: give requiredTopology or preferredTopology, not both")),
                new Case("an unknown level is rejected", s -> podSet(s).put("requiredTopology", "rack"),
                        rejected("podSets[0].requiredTopology: unknown topology level 'rack'; known: [topology.k8s.aws/network-node-layer-1, "
                                + "topology.k8s.aws/network-node-layer-2, topology.k8s.aws/network-node-layer-3, kubernetes.io/hostname]")),
                new Case("two pod sets with one name are rejected", s -> ((ArrayNode) submit(s).get("podSets")).add(podSet(s).deepCopy()),
                        rejected("podSets[1].name: duplicate pod set name 'worker'")),
                new Case("a missing namespace is rejected", s -> submit(s).remove("namespace"),
                        rejected("namespace: is required")),
                new Case("a count that is not a number is a file error", s -> podSet(s).put("count", "two"),
                        new FileError("$.steps[0].submit.podSets[0].count", null)),
                new Case("a submit that is not an object is a file error", s -> s.put("submit", "w"),
                        new FileError("$.steps[0].submit", "must be a WorkloadSubmitted object")),
                new Case("a submit without a workload id is a file error", s -> submit(s).remove("workloadId"),
                        new FileError("$.steps[0].submit.workloadId", "is required")));
    }

    private static Replayed rejected(String message) {
        return new Replayed("Rejected", "InvalidWorkload", message);
    }

    private static ObjectNode submit(ObjectNode step) {
        return (ObjectNode) step.get("submit");
    }

    private static ObjectNode podSet(ObjectNode step) {
        return (ObjectNode) submit(step).get("podSets").get(0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void submitStep(Case c) throws Exception {
        ObjectNode root = (ObjectNode) EventCodec.mapper().readTree(BASE);
        c.change.accept((ObjectNode) root.get("steps").get(0));
        assertThat(outcome(root)).isEqualTo(c.expected);
    }

    private static Outcome outcome(JsonNode root) {
        Scenario s;
        try {
            s = Scenario.parse(root);
        } catch (ScenarioException e) {
            // Jackson's wording of a type mismatch is not ours to pin: the path is what matters.
            return new FileError(e.path(), e.path().endsWith(".count") ? null : e.problem());
        }
        ScenarioResult r = Simulator.run(s, "test");
        ScenarioResult.FinalState w = r.workloads().get(0);
        return new Replayed(w.state(), w.reason(), w.message());
    }

    static final String BASE = """
            {"name": "one-submit",
             "cluster": {"instanceTypes": {"ml.g5.8xlarge": {"accelerators": 1, "vcpu": 32, "memoryGiB": 128}},
                         "nodes": [{"name": "n1", "instanceType": "ml.g5.8xlarge"}]},
             "computeQuotas": [{"Name": "a", "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo",
                                "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Accelerators": 1}]},
                                "ComputeQuotaTarget": {"TeamName": "team-a"}}],
             "steps": [{"submit": {"workloadId": "w", "namespace": "hyperpod-ns-team-a",
                                   "podSets": [{"name": "worker", "count": 1, "instanceType": "ml.g5.8xlarge",
                                                "requests": {"accelerators": 1}}]}}]}
            """;
}
