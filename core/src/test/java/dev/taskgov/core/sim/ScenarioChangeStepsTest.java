package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The steps of a changing cluster (node, removeNode, quota, deleteQuota, schedulerConfig): what
 * makes a file invalid (exit 2) names the JSON path and the rule; a valid step replays.
 */
class ScenarioChangeStepsTest {

    /** {@code problem} null: the file is valid. */
    record Case(String name, List<String> steps, String path, String problem) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case valid(String name, String... steps) {
        return new Case(name, List.of(steps), null, null);
    }

    static Case invalid(String name, String path, String problem, String... steps) {
        return new Case(name, List.of(steps), path, problem);
    }

    static final String QUOTA_B = """
            {"Name": "b", "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo",
             "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Accelerators": 1}]},
             "ComputeQuotaTarget": {"TeamName": "team-b"}}""";

    static Stream<Case> cases() {
        return Stream.of(
                valid("a node that fails, leaves and joins again",
                        "{\"node\": {\"name\": \"n1\", \"instanceType\": \"ml.g5.8xlarge\", \"ready\": false}}",
                        "{\"removeNode\": \"n1\"}",
                        "{\"node\": {\"name\": \"n1\", \"instanceType\": \"ml.g5.8xlarge\"}}"),
                valid("removing an unknown node is a step that changes nothing", "{\"removeNode\": \"n9\"}"),
                valid("a quota created, replaced disabled, deleted; a new policy",
                        "{\"quota\": " + QUOTA_B + "}",
                        "{\"quota\": " + QUOTA_B.replace("\"Name\": \"b\",", "\"Name\": \"b\", \"ActivationState\": \"Disabled\",") + "}",
                        "{\"deleteQuota\": \"team-b\"}",
                        "{\"schedulerConfig\": {\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 70}], \"FairShare\": \"Enabled\"}}"),
                invalid("a node step that is not an object", "$.steps[0].node", "must be a node record object",
                        "{\"node\": \"n1\"}"),
                invalid("a node without a name", "$.steps[0].node.name", "is required",
                        "{\"node\": {\"instanceType\": \"ml.g5.8xlarge\"}}"),
                invalid("a node of an unknown instance type", "$.steps[0].node.instanceType", "unknown instance type 'ml.p9'",
                        "{\"node\": {\"name\": \"n2\", \"instanceType\": \"ml.p9\"}}"),
                invalid("a node with negative allocatable", "$.steps[0].node.allocatable.accelerators", "must not be negative, was -1",
                        "{\"node\": {\"name\": \"n2\", \"instanceType\": \"ml.g5.8xlarge\", \"allocatable\": {\"accelerators\": -1}}}"),
                invalid("removeNode that is not a name", "$.steps[0].removeNode", "must be a node name (a string)",
                        "{\"removeNode\": {\"name\": \"n1\"}}"),
                invalid("a quota that is not an object", "$.steps[0].quota", "must be a CreateComputeQuota body",
                        "{\"quota\": \"team-b\"}"),
                invalid("a quota above the cluster's capacity", "$.steps[0].quota.ComputeQuotaConfig.ComputeQuotaResources",
                        "the quotas for ml.g5.8xlarge sum to 3 accelerators, more than the cluster's 2 accelerators on ready nodes",
                        "{\"quota\": " + QUOTA_B.replace("\"Accelerators\": 1", "\"Accelerators\": 2") + "}"),
                invalid("a quota checked against the nodes ready at its step", "$.steps[1].quota.ComputeQuotaConfig.ComputeQuotaResources",
                        "the quotas for ml.g5.8xlarge sum to 2 accelerators, more than the cluster's 1 accelerator on ready nodes",
                        "{\"node\": {\"name\": \"n2\", \"instanceType\": \"ml.g5.8xlarge\", \"ready\": false}}",
                        "{\"quota\": " + QUOTA_B + "}"),
                invalid("deleting the quota of a team without one", "$.steps[1].deleteQuota",
                        "team 'team-b' has no compute quota at this step",
                        "{\"deleteQuota\": \"team-a\"}", "{\"deleteQuota\": \"team-b\"}"),
                invalid("deleting a quota twice", "$.steps[1].deleteQuota", "team 'team-a' has no compute quota at this step",
                        "{\"deleteQuota\": \"team-a\"}", "{\"deleteQuota\": \"team-a\"}"),
                invalid("a scheduler config with a weight out of range", "$.steps[0].schedulerConfig.PriorityClasses[0].Weight",
                        "must be a whole number in 0..100, was 101",
                        "{\"schedulerConfig\": {\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 101}]}}"),
                invalid("an unknown step", "$.steps[0].drainNode",
                        "unknown step; use one of submit, finish, node, removeNode, quota, deleteQuota, schedulerConfig, podsReady, advance, expect",
                        "{\"drainNode\": \"n1\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void step(Case c) throws Exception {
        ObjectNode root = (ObjectNode) EventCodec.mapper().readTree(BASE);
        ArrayNode steps = root.putArray("steps");
        for (String s : c.steps()) steps.add(EventCodec.mapper().readTree(s));
        String path = null;
        String problem = null;
        try {
            Simulator.run(Scenario.parse(root), "test");
        } catch (ScenarioException e) {
            path = e.path();
            problem = e.problem();
        }
        assertThat(new String[]{path, problem}).containsExactly(c.path(), c.problem());
    }

    static final String BASE = """
            {"name": "changes",
             "cluster": {"instanceTypes": {"ml.g5.8xlarge": {"accelerators": 1, "vcpu": 32, "memoryGiB": 128}},
                         "nodes": [{"name": "n1", "instanceType": "ml.g5.8xlarge"}, {"name": "n2", "instanceType": "ml.g5.8xlarge"}]},
             "computeQuotas": [{"Name": "a", "ClusterArn": "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo",
                                "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.g5.8xlarge", "Accelerators": 1}]},
                                "ComputeQuotaTarget": {"TeamName": "team-a"}}],
             "steps": []}
            """;
}
