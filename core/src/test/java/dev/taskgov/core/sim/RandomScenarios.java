package dev.taskgov.core.sim;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.topology.TopologyLevels;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

/**
 * Random scenario files shaped like the public ones: one instance type, 4-16 nodes under a
 * 3-level topology (some with reduced {@code allocatable}), 2-3 teams with random quotas,
 * strategies, borrow limits, weights and PreemptTeamTasks, three priority classes, FairShare
 * Enabled, Disabled or omitted, and random submits (required, preferred or no topology) and
 * finishes; a quarter of the p5 ones count MIG partitions instead of accelerators. The steps of a
 * changing cluster are left out.
 */
final class RandomScenarios {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final List<String> LEVELS = List.of(TopologyLevels.LAYER_1, TopologyLevels.LAYER_2, TopologyLevels.LAYER_3);

    private RandomScenarios() {
    }

    /** A scenario without expect steps. */
    static ObjectNode generate(long seed) {
        Random rnd = new Random(seed);
        boolean big = rnd.nextBoolean();
        String type = big ? "ml.p5.48xlarge" : "ml.g5.8xlarge";
        int perNode = big ? 8 : 1;
        ObjectNode root = JSON.objectNode();
        root.put("name", "random-" + seed);
        root.put("description", "random scenario, seed " + seed);
        ObjectNode cluster = root.putObject("cluster");
        ObjectNode it = cluster.putObject("instanceTypes").putObject(type);
        it.put("accelerators", perNode);
        it.put("vcpu", big ? 192 : 32);
        it.put("memoryGiB", big ? 2048 : 128);
        ArrayNode nodes = cluster.putArray("nodes");
        int nodeCount = 4 + rnd.nextInt(13);
        int l2s = 1 + rnd.nextInt(2);
        long capacity = 0;
        for (int i = 0; i < nodeCount; i++) {
            int l2 = rnd.nextInt(l2s);
            int l3 = rnd.nextInt(3);
            ObjectNode n = nodes.addObject();
            n.put("name", String.format("n%d%d%d%d", 0, l2, l3, i));
            n.put("instanceType", type);
            ObjectNode labels = n.putObject("labels");
            labels.put(LEVELS.get(0), "l1-0");
            labels.put(LEVELS.get(1), "l2-0" + l2);
            labels.put(LEVELS.get(2), "l3-0" + l2 + l3);
            int acc = perNode;
            if (rnd.nextInt(5) == 0) {
                acc = rnd.nextInt(perNode + 1);
                n.putObject("allocatable").put("accelerators", acc);
            }
            capacity += acc;
        }
        ObjectNode config = root.putObject("schedulerConfig");
        ArrayNode classes = config.putArray("PriorityClasses");
        classes.addObject().put("Name", "high").put("Weight", 90);
        classes.addObject().put("Name", "mid").put("Weight", 50);
        classes.addObject().put("Name", "low").put("Weight", 10);
        switch (rnd.nextInt(3)) {
            case 0 -> config.put("FairShare", "Enabled");
            case 1 -> config.put("FairShare", "Disabled");
            default -> { } // omitted: Enabled
        }
        int teams = 2 + rnd.nextInt(2);
        ArrayNode quotas = root.putArray("computeQuotas");
        long left = capacity;
        for (int t = 0; t < teams; t++) {
            long nominal = left <= 0 ? 0 : rnd.nextLong(Math.max(1, left * 2 / teams) + 1);
            nominal = Math.min(nominal, left);
            left -= nominal;
            ObjectNode q = quotas.addObject();
            q.put("Name", "t" + t + "-quota");
            q.put("ClusterArn", "arn:aws:sagemaker:us-west-2:123456789012:cluster/rand");
            ObjectNode qc = q.putObject("ComputeQuotaConfig");
            qc.putArray("ComputeQuotaResources").addObject().put("InstanceType", type).put("Accelerators", nominal);
            ObjectNode sharing = qc.putObject("ResourceSharingConfig");
            String strategy = pick(rnd, "LendAndBorrow", "LendAndBorrow", "Lend", "DontLend");
            sharing.put("Strategy", strategy);
            if (strategy.equals("LendAndBorrow") && rnd.nextInt(4) > 0) {
                sharing.put("BorrowLimit", pick(rnd, 0, 50, 100, 150, 300, 1000));
            }
            qc.put("PreemptTeamTasks", pick(rnd, "LowerPriority", "Never"));
            q.putObject("ComputeQuotaTarget").put("TeamName", "t" + t).put("FairShareWeight", pick(rnd, 0, 25, 50, 100, 1 + rnd.nextInt(100)));
            q.put("ActivationState", "Enabled");
        }
        ArrayNode steps = root.putArray("steps");
        int stepCount = 10 + rnd.nextInt(25);
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < stepCount; s++) {
            if (!ids.isEmpty() && rnd.nextInt(10) < 3) {
                steps.addObject().put("finish", ids.get(rnd.nextInt(ids.size())));
                continue;
            }
            String id = "w" + s;
            ids.add(id);
            ObjectNode w = steps.addObject().putObject("submit");
            w.put("workloadId", id);
            w.put("namespace", "hyperpod-ns-t" + rnd.nextInt(teams));
            w.put("jobKind", "PyTorchJob");
            int podSets = rnd.nextInt(8) == 0 ? 2 : 1;
            ArrayNode ps = w.putArray("podSets");
            for (int p = 0; p < podSets; p++) {
                ObjectNode set = ps.addObject();
                set.put("name", p == 0 ? "worker" : "launcher");
                set.put("count", 1 + rnd.nextInt(6));
                set.put("instanceType", type);
                int[] sizes = big ? new int[]{1, 2, 4, 8} : new int[]{1};
                set.putObject("requests").put("accelerators", sizes[rnd.nextInt(sizes.length)]);
                switch (rnd.nextInt(3)) {
                    case 0 -> set.put("requiredTopology", LEVELS.get(rnd.nextInt(3)));
                    case 1 -> set.put("preferredTopology", LEVELS.get(rnd.nextInt(3)));
                    default -> { }
                }
            }
            String cls = pick(rnd, "high-priority", "mid-priority", "low-priority", null);
            if (cls != null) w.put("priorityClass", cls);
        }
        // A quarter of the p5 scenarios run in MIG mode; decided apart, so that every seed's draws above stay the same
        // (by a SplittableRandom: the first draw of java.util.Random is nearly the same for neighbouring seeds).
        if (big && new java.util.SplittableRandom(seed).nextInt(4) == 0) inMigMode(root, perNode);
        return root;
    }

    /** The partition type the MIG-mode scenarios count in. */
    static final String SLICE = "mig-1g.10gb";

    /**
     * The same scenario with every accelerator turned into a partition of {@link #SLICE}: nodes offer their
     * accelerators as partitions (and no whole accelerator), quotas give them as {@code AcceleratorPartition}
     * and pods request them as {@code partitions}. Partitions carry no ratio defaults, so nothing else changes.
     */
    private static void inMigMode(ObjectNode root, int perNode) {
        root.put("description", root.path("description").asText() + ", in MIG mode");
        for (var n : root.path("cluster").withArray("nodes")) {
            ObjectNode node = (ObjectNode) n;
            ObjectNode alloc = node.has("allocatable") ? (ObjectNode) node.get("allocatable") : node.putObject("allocatable");
            int acc = alloc.has("accelerators") ? alloc.get("accelerators").asInt() : perNode;
            alloc.put("accelerators", 0);
            alloc.putObject("partitions").put(SLICE, acc);
        }
        for (var q : root.withArray("computeQuotas")) {
            for (var r : q.path("ComputeQuotaConfig").withArray("ComputeQuotaResources")) {
                ObjectNode entry = (ObjectNode) r;
                long count = entry.remove("Accelerators").asLong();
                entry.putObject("AcceleratorPartition").put("Type", SLICE).put("Count", count);
            }
        }
        for (var step : root.withArray("steps")) {
            if (!step.has("submit")) continue;
            for (var ps : step.get("submit").withArray("podSets")) {
                ObjectNode requests = (ObjectNode) ps.get("requests");
                int k = requests.remove("accelerators").asInt();
                requests.putObject("partitions").put(SLICE, k);
            }
        }
    }

    /**
     * A copy of a scenario (without expect steps) with an expect step after every step, holding
     * exactly what the reference says: admitted and pending ids, the preempted set and every
     * admitted workload's placement.
     */
    static ObjectNode withReferenceExpectations(ObjectNode scenario) {
        ObjectNode out = scenario.deepCopy();
        ArrayNode steps = out.putArray("steps");
        for (var step : scenario.withArray("steps")) {
            steps.add(step.deepCopy());
            steps.addObject().putObject("expect");
        }
        List<ReferenceSimulator.Snapshot> snaps = ReferenceSimulator.run(Scenario.parse(out));
        for (ReferenceSimulator.Snapshot s : snaps) {
            if (!steps.get(s.stepIndex()).has("expect")) continue;
            ObjectNode e = (ObjectNode) steps.get(s.stepIndex()).get("expect");
            fill(e, s);
        }
        return out;
    }

    static void fill(ObjectNode e, ReferenceSimulator.Snapshot s) {
        ArrayNode admitted = e.putArray("admitted");
        ArrayNode pending = e.putArray("pending");
        s.states().forEach((id, state) -> {
            if (state.equals("Admitted")) admitted.add(id);
            if (state.equals("Pending")) pending.add(id);
        });
        ArrayNode preempted = e.putArray("preemptedSinceLastExpect");
        s.preemptedSince().forEach(preempted::add);
        if (!s.placements().isEmpty()) {
            ObjectNode placements = e.putObject("placements");
            s.placements().forEach((id, podSets) -> {
                ObjectNode w = placements.putObject(id);
                podSets.forEach((ps, nodes) -> {
                    ObjectNode n = w.putObject(ps).putObject("nodes");
                    new TreeMap<>(nodes).forEach(n::put);
                });
            });
        }
    }

    @SafeVarargs
    private static <T> T pick(Random rnd, T... options) {
        return options[rnd.nextInt(options.length)];
    }
}
