package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.topology.TopologyLevels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission-service and preemption-service build their pictures of the cluster from
 * the same records (quotas, scheduler config, nodes, submitted, admitted, finished and preempted
 * workloads), each in its own way (admission's {@code Scheduler}, preemption's
 * {@code ClusterState}). After every step of a random sequence, once both deciders have read
 * everything, the two pictures must agree: the same running workloads, the same usage per team
 * and instance type, the same free resources per node, and the same idle quota the cohort lends.
 * The sequences change the cluster too: nodes fail, leave, join and shrink, quotas change, are
 * disabled and deleted, and the scheduler config changes (idle resource sharing included).
 */
class ViewsAgreePropertyTest {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final String TYPE = "ml.p5.48xlarge";
    private static final int PER_NODE = 8;
    private static final String ARN = "arn:aws:sagemaker:us-west-2:123456789012:cluster/views";
    /** Nodes n0.. that no step changes: their capacity bounds the quotas. */
    private static final int STEADY_NODES = 3;

    /** What one view says of the cluster, in comparable form. */
    record Picture(Set<String> running, Map<String, Map<String, Resources>> usage, Map<String, Resources> freeByNode,
                   Map<String, Resources> idlePool) {
    }

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8})
    void admissionAndPreemptionSeeTheSameCluster(long seed) {
        Scenario scenario = Scenario.parse(randomScenario(seed));
        try (LiveServices live = new LiveServices("views-" + seed)) {
            live.startWith(scenario);
            assertSamePicture(live, seed, -1);

            Instant time = Simulator.START;
            for (Scenario.Step step : scenario.steps()) {
                time = time.plus(Duration.ofSeconds(1));
                live.publishStep(step, time);
                live.awaitQuiet();
                assertSamePicture(live, seed, step.index());
            }
        }
    }

    private static void assertSamePicture(LiveServices live, long seed, int step) {
        // the scenarios name no cluster: everything happens in the deployment's unnamed cluster
        List<Picture> pictures = new ArrayList<>();
        live.admission.reads().forEachScheduler((cluster, s) -> {
            if (cluster.equals(ClusterArn.UNNAMED)) pictures.add(pictureOf(s));
        });
        assertThat(pictures).as("admission decides for the unnamed cluster").hasSize(1);
        Picture admission = pictures.get(0);
        ClusterView planning = live.preemption.processor().planningView(ClusterArn.UNNAMED); // reads the state topics to their ends first
        Set<String> teams = new TreeSet<>(admission.usage().keySet());
        Picture preemption = pictureOf(new TreeSet<>(live.preemption.processor().running()), planning, teams);
        assertThat(preemption).as("seed %d, after step %d: preemption's picture vs admission's", seed, step).isEqualTo(admission);
    }

    private static Picture pictureOf(Scheduler s) {
        Set<String> running = new TreeSet<>();
        Set<String> teams = new TreeSet<>();
        for (WorkloadView w : s.workloads()) {
            if (w.state() == WorkloadState.Admitted) running.add(w.workloadId());
            if (!w.team().isEmpty()) teams.add(w.team());
        }
        s.ledger().quotas().forEach(q -> teams.add(q.team()));
        return pictureOf(running, s.clusterView(), teams);
    }

    private static Picture pictureOf(Set<String> running, ClusterView view, Collection<String> teams) {
        QuotaLedger ledger = view.ledger();
        Map<String, Map<String, Resources>> usage = new TreeMap<>();
        for (String team : teams) {
            Map<String, Resources> used = new TreeMap<>();
            ledger.usage(team).forEach((type, r) -> {
                if (!r.isZero()) used.put(type, r);
            });
            usage.put(team, used);
        }
        Topology topology = view.topology();
        Map<String, Resources> free = new TreeMap<>();
        for (Node n : topology.nodes()) free.put(n.name(), topology.free(n.name()));
        Map<String, Resources> idle = new TreeMap<>();
        idle.put(TYPE, ledger.poolCapacity(TYPE).minus(ledger.poolUsage(TYPE)));
        return new Picture(running, usage, free, idle);
    }

    // ------------------------------------------------------------------ random sequences

    /**
     * One instance type, 5-10 nodes under a 3-level topology (three of them never change), 2-3
     * teams, three priority classes, FairShare and IdleResourceSharing at random; then 20-30 steps:
     * submissions (with and without topology), finishes, and changes of nodes, quotas and the
     * scheduler config.
     */
    static ObjectNode randomScenario(long seed) {
        Random rnd = new Random(seed);
        ObjectNode root = JSON.objectNode();
        root.put("name", "views-" + seed);
        ObjectNode cluster = root.putObject("cluster");
        cluster.putObject("instanceTypes").putObject(TYPE).put("accelerators", PER_NODE).put("vcpu", 192).put("memoryGiB", 2048);
        ArrayNode nodes = cluster.putArray("nodes");
        int nodeCount = STEADY_NODES + 2 + rnd.nextInt(6);
        List<String> changeable = new ArrayList<>();
        for (int i = 0; i < nodeCount; i++) {
            String name = "n" + i;
            fillNode(nodes.addObject(), name, i % 2, i >= STEADY_NODES ? rnd : null);
            if (i >= STEADY_NODES) changeable.add(name);
        }
        root.set("schedulerConfig", config(rnd));
        int teams = 2 + rnd.nextInt(2);
        // the steady nodes alone hold every quota, so no node step makes a later quota step invalid
        long share = (long) STEADY_NODES * PER_NODE / teams;
        ArrayNode quotas = root.putArray("computeQuotas");
        Set<Integer> withQuota = new TreeSet<>();
        for (int t = 0; t < teams; t++) {
            quotas.add(quota(t, rnd.nextLong(share + 1), rnd, true));
            withQuota.add(t);
        }

        ArrayNode steps = root.putArray("steps");
        int stepCount = 20 + rnd.nextInt(11);
        List<String> ids = new ArrayList<>();
        for (int s = 0; s < stepCount; s++) {
            int roll = rnd.nextInt(100);
            if (roll < 55 || ids.isEmpty()) {
                String id = "w" + s;
                ids.add(id);
                steps.addObject().set("submit", submission(id, teams, rnd));
            } else if (roll < 72) {
                steps.addObject().put("finish", ids.get(rnd.nextInt(ids.size())));
            } else if (roll < 80 || changeable.isEmpty() && roll < 84) {
                String name = rnd.nextInt(3) == 0 || changeable.isEmpty() ? "n" + (nodeCount + s) : changeable.get(rnd.nextInt(changeable.size()));
                if (!changeable.contains(name)) changeable.add(name);
                fillNode(steps.addObject().putObject("node"), name, rnd.nextInt(2), rnd);
            } else if (roll < 84) {
                steps.addObject().put("removeNode", changeable.remove(rnd.nextInt(changeable.size())));
            } else if (roll < 92 || withQuota.isEmpty()) {
                int t = rnd.nextInt(teams);
                withQuota.add(t);
                steps.addObject().set("quota", quota(t, rnd.nextLong(share + 1), rnd, rnd.nextInt(5) > 0));
            } else if (roll < 95) {
                int t = List.copyOf(withQuota).get(rnd.nextInt(withQuota.size()));
                withQuota.remove(t);
                steps.addObject().put("deleteQuota", "t" + t);
            } else {
                steps.addObject().set("schedulerConfig", config(rnd));
            }
        }
        return root;
    }

    /** A node record; with {@code rnd}, sometimes not ready or with fewer accelerators than its type. */
    private static void fillNode(ObjectNode n, String name, int l2, Random rnd) {
        n.put("name", name);
        n.put("instanceType", TYPE);
        ObjectNode labels = n.putObject("labels");
        labels.put(TopologyLevels.LAYER_1, "l1-0");
        labels.put(TopologyLevels.LAYER_2, "l2-" + l2);
        labels.put(TopologyLevels.LAYER_3, "l3-" + l2 + (name.hashCode() & 1));
        if (rnd == null) return;
        if (rnd.nextInt(5) == 0) n.putObject("allocatable").put("accelerators", rnd.nextInt(PER_NODE + 1));
        if (rnd.nextInt(8) == 0) n.put("ready", false);
    }

    private static ObjectNode config(Random rnd) {
        ObjectNode config = JSON.objectNode();
        ArrayNode classes = config.putArray("PriorityClasses");
        classes.addObject().put("Name", "high").put("Weight", 90);
        classes.addObject().put("Name", "mid").put("Weight", rnd.nextBoolean() ? 50 : 95);
        classes.addObject().put("Name", "low").put("Weight", 10);
        config.put("FairShare", rnd.nextBoolean() ? "Enabled" : "Disabled");
        config.put("IdleResourceSharing", rnd.nextBoolean() ? "Enabled" : "Disabled");
        return config;
    }

    private static ObjectNode quota(int team, long nominal, Random rnd, boolean enabled) {
        ObjectNode q = JSON.objectNode();
        q.put("Name", "t" + team + "-quota");
        q.put("ClusterArn", ARN);
        ObjectNode qc = q.putObject("ComputeQuotaConfig");
        qc.putArray("ComputeQuotaResources").addObject().put("InstanceType", TYPE).put("Accelerators", nominal);
        ObjectNode sharing = qc.putObject("ResourceSharingConfig");
        String strategy = List.of("LendAndBorrow", "LendAndBorrow", "Lend", "DontLend").get(rnd.nextInt(4));
        sharing.put("Strategy", strategy);
        if (strategy.equals("LendAndBorrow") && rnd.nextBoolean()) sharing.put("BorrowLimit", List.of(0, 50, 100, 300).get(rnd.nextInt(4)));
        qc.put("PreemptTeamTasks", rnd.nextBoolean() ? "LowerPriority" : "Never");
        q.putObject("ComputeQuotaTarget").put("TeamName", "t" + team).put("FairShareWeight", List.of(0, 50, 100).get(rnd.nextInt(3)));
        q.put("ActivationState", enabled ? "Enabled" : "Disabled");
        return q;
    }

    private static ObjectNode submission(String id, int teams, Random rnd) {
        ObjectNode w = JSON.objectNode();
        w.put("workloadId", id);
        w.put("namespace", "hyperpod-ns-t" + rnd.nextInt(teams));
        w.put("jobKind", "PyTorchJob");
        ObjectNode set = w.putArray("podSets").addObject();
        set.put("name", "worker");
        set.put("count", 1 + rnd.nextInt(4));
        set.put("instanceType", TYPE);
        set.putObject("requests").put("accelerators", List.of(1, 2, 4, 8).get(rnd.nextInt(4)));
        switch (rnd.nextInt(3)) {
            case 0 -> set.put("requiredTopology", TopologyLevels.ALL.get(rnd.nextInt(3)));
            case 1 -> set.put("preferredTopology", TopologyLevels.ALL.get(rnd.nextInt(3)));
            default -> { }
        }
        String cls = List.of("high-priority", "mid-priority", "low-priority", "").get(rnd.nextInt(4));
        if (!cls.isEmpty()) w.put("priorityClass", cls);
        return w;
    }
}
