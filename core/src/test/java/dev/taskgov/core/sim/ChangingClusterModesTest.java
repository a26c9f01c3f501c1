package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.scheduling.Scheduler;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two scheduler modes on random scenarios of a changing cluster ({@link RandomScenarios} with nodes failing,
 * leaving and coming back, quotas changed, disabled and deleted, and the scheduler config changed between
 * submissions): after every third step and the last, delegated mode (the live deciders' way, preemptions carried out
 * by another party) must see exactly what in-process mode sees, every workload's state and placement. The reference simulator does not
 * model a changing cluster, so this is a differential of the two modes, and every run must end
 * (docs/semantics.md, "Every run ends"). Seeds: {@code -Dchanging.from=N -Dchanging.count=M}.
 */
class ChangingClusterModesTest {

    private static final long FROM = Long.getLong("changing.from", 0);
    private static final long COUNT = Long.getLong("changing.count", 300);

    @TestFactory
    Stream<DynamicTest> delegatedModeSeesWhatInProcessModeSeesAfterEveryStep() {
        return LongStream.range(FROM, FROM + COUNT).mapToObj(seed -> DynamicTest.dynamicTest("seed " + seed, () -> {
            ObjectNode file = changing(seed);
            ArrayNode steps = (ArrayNode) file.get("steps");
            // after every third step and the last (a difference, once there, mostly stays: states diverge)
            for (int k = Math.min(3, steps.size()); k <= steps.size(); k = k == steps.size() ? k + 1 : Math.min(k + 3, steps.size())) {
                ObjectNode prefix = file.deepCopy();
                ArrayNode cut = prefix.putArray("steps");
                for (int i = 0; i < k; i++) cut.add(steps.get(i).deepCopy());
                Scenario s = Scenario.parse(prefix);
                Map<String, String> inProcess = observed(Simulator.run(s, "changing-" + seed, Scheduler.Mode.IN_PROCESS));
                Map<String, String> delegated = observed(Simulator.run(s, "changing-" + seed, Scheduler.Mode.DELEGATED));
                assertThat(delegated).as("seed %d, after step %d (%s)", seed, k - 1, steps.get(k - 1)).isEqualTo(inProcess);
            }
        }));
    }

    /** Each workload's state, and where it runs when admitted. */
    private static Map<String, String> observed(ScenarioResult r) {
        Map<String, String> out = new TreeMap<>();
        for (ScenarioResult.FinalState f : r.workloads()) {
            out.put(f.workloadId(), f.state() + (f.placement() == null ? "" : " " + f.placement()));
        }
        return out;
    }

    /** A random static scenario with changes of the cluster, its quotas and its policy between its steps. */
    static ObjectNode changing(long seed) {
        ObjectNode file = RandomScenarios.generate(seed);
        Random rnd = new Random(seed * 31 + 7);
        ArrayNode original = (ArrayNode) file.get("steps");
        ArrayNode nodes = (ArrayNode) file.get("cluster").get("nodes");
        ArrayNode quotas = (ArrayNode) file.get("computeQuotas");
        List<JsonNode> removed = new ArrayList<>();
        List<String> notReady = new ArrayList<>();
        List<String> present = new ArrayList<>();
        nodes.forEach(n -> present.add(n.get("name").asText()));
        Map<String, JsonNode> quotaOf = new TreeMap<>();
        quotas.forEach(q -> quotaOf.put(q.get("ComputeQuotaTarget").get("TeamName").asText(), q));
        List<String> deleted = new ArrayList<>();
        ArrayNode steps = EventCodec.mapper().createArrayNode();
        for (JsonNode step : original) {
            steps.add(step);
            if (rnd.nextInt(3) != 0) continue;
            switch (rnd.nextInt(7)) {
                case 0, 1 -> { // a ready node fails
                    List<String> ready = present.stream().filter(n -> !notReady.contains(n)).toList();
                    if (ready.isEmpty()) break;
                    String name = ready.get(rnd.nextInt(ready.size()));
                    ObjectNode n = nodeJson(nodes, name).deepCopy();
                    n.put("ready", false);
                    steps.addObject().set("node", n);
                    notReady.add(name);
                }
                case 2 -> { // a failed node is ready again
                    if (notReady.isEmpty()) break;
                    String name = notReady.remove(rnd.nextInt(notReady.size()));
                    steps.addObject().set("node", nodeJson(nodes, name).deepCopy());
                }
                case 3 -> { // a node leaves, or one that left comes back
                    if (!removed.isEmpty() && rnd.nextBoolean()) {
                        JsonNode back = removed.remove(0);
                        steps.addObject().set("node", back.deepCopy());
                        present.add(back.get("name").asText());
                    } else if (present.size() > 1) {
                        String name = present.remove(rnd.nextInt(present.size()));
                        notReady.remove(name);
                        removed.add(nodeJson(nodes, name));
                        steps.addObject().put("removeNode", name);
                    }
                }
                case 4 -> { // a quota changes its sharing, weight or activation, or a deleted one comes back
                    // (a quota step is checked against the ready capacity, so only while every node is up)
                    if (!notReady.isEmpty() || !removed.isEmpty()) break;
                    if (!deleted.isEmpty() && rnd.nextBoolean()) {
                        steps.addObject().set("quota", quotaOf.get(deleted.remove(0)).deepCopy());
                        break;
                    }
                    List<String> teams = quotaOf.keySet().stream().filter(t -> !deleted.contains(t)).toList();
                    if (teams.isEmpty()) break;
                    ObjectNode q = (ObjectNode) quotaOf.get(teams.get(rnd.nextInt(teams.size()))).deepCopy();
                    ObjectNode config = (ObjectNode) q.get("ComputeQuotaConfig");
                    switch (rnd.nextInt(4)) {
                        case 0 -> ((ObjectNode) config.get("ResourceSharingConfig")).put("Strategy",
                                List.of("LendAndBorrow", "Lend", "DontLend").get(rnd.nextInt(3)));
                        case 1 -> ((ObjectNode) q.get("ComputeQuotaTarget")).put("FairShareWeight", List.of(0, 10, 50, 100).get(rnd.nextInt(4)));
                        case 2 -> config.put("PreemptTeamTasks", rnd.nextBoolean() ? "LowerPriority" : "Never");
                        default -> q.put("ActivationState", rnd.nextBoolean() ? "Disabled" : "Enabled");
                    }
                    if ("LendAndBorrow".equals(config.get("ResourceSharingConfig").get("Strategy").asText())) {
                        ((ObjectNode) config.get("ResourceSharingConfig")).put("BorrowLimit", List.of(0, 50, 100, 300).get(rnd.nextInt(4)));
                    } else {
                        ((ObjectNode) config.get("ResourceSharingConfig")).remove("BorrowLimit");
                    }
                    steps.addObject().set("quota", q);
                    quotaOf.put(q.get("ComputeQuotaTarget").get("TeamName").asText(), q);
                }
                case 5 -> { // a quota is deleted
                    List<String> teams = quotaOf.keySet().stream().filter(t -> !deleted.contains(t)).toList();
                    if (teams.size() < 2) break;
                    String team = teams.get(rnd.nextInt(teams.size()));
                    deleted.add(team);
                    steps.addObject().put("deleteQuota", team);
                }
                default -> { // the policy changes: fair sharing switched, or the classes' weights reordered
                    ObjectNode config = file.get("schedulerConfig").deepCopy();
                    config.put("FairShare", rnd.nextBoolean() ? "Enabled" : "Disabled");
                    if (rnd.nextBoolean()) {
                        ArrayNode classes = config.putArray("PriorityClasses");
                        classes.addObject().put("Name", "high").put("Weight", 20);
                        classes.addObject().put("Name", "mid").put("Weight", 50);
                        classes.addObject().put("Name", "low").put("Weight", 90);
                    }
                    steps.addObject().set("schedulerConfig", config);
                }
            }
        }
        file.set("steps", steps);
        file.put("description", "random scenario of a changing cluster, seed " + seed);
        return file;
    }

    private static JsonNode nodeJson(ArrayNode nodes, String name) {
        for (JsonNode n : nodes) if (n.get("name").asText().equals(name)) return n;
        throw new IllegalArgumentException(name);
    }
}
