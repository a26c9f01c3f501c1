package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * Test fixture: a cluster of 1-GPU nodes ({@code ml.g5.8xlarge}), teams with accelerator quotas,
 * and a fluent way to submit, finish and observe. Each step advances virtual time one second.
 */
public final class Cluster {

    public static final String G5 = "ml.g5.8xlarge";
    public static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));

    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, TeamQuota> quotas = new LinkedHashMap<>();
    private final Map<String, Integer> classes = new LinkedHashMap<>(Map.of("inference", 90, "training", 50, "experiment", 10));
    private boolean fairShare;
    private final List<UnaryOperator<Scheduler>> steps = new ArrayList<>();
    private String label;
    private Scheduler.Mode mode = Scheduler.Mode.IN_PROCESS;

    /** Runs the scheduler in delegated mode (preemptions are requested, not carried out). */
    public Cluster delegated() {
        mode = Scheduler.Mode.DELEGATED;
        return this;
    }

    /** Any step on the scheduler (e.g. an eviction reported by the preemption service). */
    public Cluster then(java.util.function.Consumer<Scheduler> action) {
        steps.add(s -> {
            action.accept(s);
            return s;
        });
        return this;
    }

    private Cluster(int gpuNodes, int gpusPerNode) {
        for (int i = 1; i <= gpuNodes; i++) nodes.add(node(i, gpusPerNode, true));
    }

    /** Node {@code i} (1-based): named n01, n02..., in rack-(i-1)/4 of layer-1 nn-1. */
    private static Node node(int i, int gpus, boolean ready) {
        return new Node("n" + (i < 10 ? "0" : "") + i, null, G5,
                Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_3, "rack-" + ((i - 1) / 4)), G5_TYPE.capacity().times(gpus), ready);
    }

    /** A cluster of {@code n} one-GPU nodes, 4 per rack. */
    public static Cluster gpus(int n) {
        return new Cluster(n, 1);
    }

    /** A cluster of {@code n} nodes of {@code gpusPerNode} GPUs each (and as many times the vCPU and memory), 4 per rack. */
    public static Cluster nodes(int n, int gpusPerNode) {
        return new Cluster(n, gpusPerNode);
    }

    /** Node {@code name} (as built, e.g. "n01") becomes not ready. */
    public Cluster failNode(String name) {
        return readiness(name, false);
    }

    /** Node {@code name} is ready again. */
    public Cluster nodeBack(String name) {
        return readiness(name, true);
    }

    private Cluster readiness(String name, boolean ready) {
        steps.add(s -> {
            Node n = s.topology().nodes().stream().filter(x -> x.name().equals(name)).findFirst().orElseThrow();
            s.upsertNode(new Node(n.name(), n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), ready));
            return s;
        });
        return this;
    }

    /** Node {@code name} leaves the cluster (a tombstone). */
    public Cluster removeNode(String name) {
        steps.add(s -> {
            s.removeNode(name);
            return s;
        });
        return this;
    }

    /** Node number {@code i} (1-based, see the constructor's naming and racks) joins with {@code gpus} GPUs. */
    public Cluster addNode(int i, int gpus) {
        steps.add(s -> {
            s.upsertNode(node(i, gpus, true));
            return s;
        });
        return this;
    }

    /** Creates or replaces a team's quota while the cluster runs. */
    public Cluster quota(String team, int gpus, UnaryOperator<TeamQuota> tweak) {
        steps.add(s -> {
            s.applyQuota(tweak.apply(TeamQuota.of(team, Map.of(G5, G5_TYPE.capacity().times(gpus)))));
            return s;
        });
        return this;
    }

    public Cluster quota(String team, int gpus) {
        return quota(team, gpus, q -> q);
    }

    /** Deletes a team's quota while the cluster runs. */
    public Cluster deleteQuota(String team) {
        steps.add(s -> {
            s.removeQuota(team);
            return s;
        });
        return this;
    }

    /** Replaces the priority classes while the cluster runs (FairShare unchanged). */
    public Cluster priorityClasses(Map<String, Integer> newClasses) {
        steps.add(s -> {
            s.applySchedulerConfig(new SchedulerConfig(new LinkedHashMap<>(newClasses), s.config().fairShare()));
            return s;
        });
        return this;
    }

    /** A team with {@code gpus} accelerators of quota (ratio defaults for vCPU and memory) and the SageMaker defaults. */
    public Cluster team(String name, int gpus) {
        return team(name, gpus, q -> q);
    }

    public Cluster team(String name, int gpus, UnaryOperator<TeamQuota> tweak) {
        TeamQuota q = TeamQuota.of(name, Map.of(G5, G5_TYPE.capacity().times(gpus)));
        quotas.put(name, tweak.apply(q));
        return this;
    }

    public static UnaryOperator<TeamQuota> lend() {
        return q -> q.withStrategy(SharingStrategy.Lend);
    }

    public static UnaryOperator<TeamQuota> dontLend() {
        return q -> q.withStrategy(SharingStrategy.DontLend);
    }

    public static UnaryOperator<TeamQuota> borrowLimit(int percent) {
        return q -> q.withBorrowLimit(percent);
    }

    public static UnaryOperator<TeamQuota> weight(int w) {
        return q -> q.withFairShareWeight(w);
    }

    public static UnaryOperator<TeamQuota> never() {
        return q -> q.withPreemptTeamTasks(PreemptTeamTasks.Never);
    }

    public Cluster fairShare() {
        fairShare = true;
        return this;
    }

    public Cluster noPriorityClasses() {
        classes.clear();
        return this;
    }

    /** Submits {@code pods} one-GPU pods for a team, with a priority class name (or null). */
    public Cluster submit(String id, String team, int pods, String priorityClass) {
        steps.add(s -> {
            int p = priorityClass == null ? s.config().defaultPriority() : s.config().priorityOf(priorityClass);
            String cls = priorityClass == null ? null : s.config().resolveClass(priorityClass).orElse(null);
            s.submit(new Workload(id, team, cls, p, Instant.EPOCH, List.of(
                    new PodSetRequest("worker", pods, G5, Resources.accelerators(1), null))));
            return s;
        });
        return this;
    }

    /** Submits {@code pods} one-GPU pods with a topology request (required or preferred level). */
    public Cluster submit(String id, String team, int pods, String priorityClass, dev.taskgov.core.topology.TopologyRequest topology) {
        steps.add(s -> {
            int p = s.config().priorityOf(priorityClass);
            String cls = s.config().resolveClass(priorityClass).orElse(null);
            s.submit(new Workload(id, team, cls, p, Instant.EPOCH, List.of(
                    new PodSetRequest("worker", pods, G5, Resources.accelerators(1), topology))));
            return s;
        });
        return this;
    }

    /** Submits {@code pods} one-GPU pods with a topology request and a node selector. */
    public Cluster submit(String id, String team, int pods, String priorityClass, dev.taskgov.core.topology.TopologyRequest topology,
                          Map<String, String> nodeSelector) {
        steps.add(s -> {
            int p = s.config().priorityOf(priorityClass);
            String cls = s.config().resolveClass(priorityClass).orElse(null);
            s.submit(new Workload(id, team, cls, p, Instant.EPOCH, List.of(
                    new PodSetRequest("worker", pods, G5, Resources.accelerators(1), topology, nodeSelector))));
            return s;
        });
        return this;
    }

    public Cluster submit(String id, String team, int pods) {
        return submit(id, team, pods, "training");
    }

    /** Submits {@code pods} one-GPU training pods that are queued again up to {@code maxRetries} times after a failure. */
    public Cluster submitRetrying(String id, String team, int pods, int maxRetries) {
        steps.add(s -> {
            s.submit(new Workload(id, team, "training", s.config().priorityOf("training"), Instant.EPOCH, List.of(
                    new PodSetRequest("worker", pods, G5, Resources.accelerators(1), null)), maxRetries));
            return s;
        });
        return this;
    }

    /** The workload ends Failed ({@link Scheduler#fail}). */
    public Cluster fail(String id) {
        steps.add(s -> {
            s.fail(id);
            return s;
        });
        return this;
    }

    public Cluster finish(String id) {
        steps.add(s -> {
            s.finish(id);
            return s;
        });
        return this;
    }

    /** Runs the steps on a fresh in-process scheduler and returns what it looks like afterwards. */
    public Outcome run() {
        return replay().outcome;
    }

    public Replay replay() {
        return replay(true);
    }

    /** The steps on a fresh scheduler that reuses verdicts per shape (the ordinary one) or, false, the reference that does not. */
    public Replay replay(boolean reuseParkedVerdicts) {
        VirtualClock clock = new VirtualClock(Instant.parse("2026-11-30T10:00:00Z"));
        Scheduler s = new Scheduler(clock, mode, List.of(G5_TYPE), nodes, reuseParkedVerdicts);
        s.applySchedulerConfig(new SchedulerConfig(classes, fairShare));
        quotas.values().forEach(s::applyQuota);
        List<String> preempted = new ArrayList<>();
        List<Decision> decisions = new ArrayList<>();
        List<Decision> last = List.of();
        for (UnaryOperator<Scheduler> step : steps) {
            clock.advance(Duration.ofSeconds(1));
            step.apply(s);
            List<Decision> d = s.cycle();
            decisions.addAll(d);
            last = d;
            for (Decision x : d) {
                if (x instanceof Decision.Preempt p) p.plan().victims().stream().map(Victim::workloadId).forEach(preempted::add);
                if (x instanceof Decision.Evict e) preempted.add(e.workloadId());
            }
        }
        TreeSet<String> admitted = new TreeSet<>();
        TreeSet<String> pending = new TreeSet<>();
        for (WorkloadView v : s.workloads()) {
            if (v.state() == WorkloadState.Admitted) admitted.add(v.workloadId());
            if (v.state() == WorkloadState.Pending) pending.add(v.workloadId());
        }
        return new Replay(s, decisions, new Outcome(admitted, pending, preempted), last);
    }

    /** The scheduler after the steps, every decision, the summary, and the decisions of the last step's cycle. */
    public record Replay(Scheduler scheduler, List<Decision> decisions, Outcome outcome, List<Decision> lastCycle) {
    }

    /**
     * What a run ends with.
     *
     * @param preempted victims in eviction order (also those evicted without a preemptor: node failure, quota removed)
     */
    public record Outcome(java.util.SortedSet<String> admitted, java.util.SortedSet<String> pending, List<String> preempted) {
        public static Outcome of(List<String> admitted, List<String> pending, List<String> preempted) {
            return new Outcome(new TreeSet<>(admitted), new TreeSet<>(pending), preempted);
        }
    }

    public Cluster named(String label) {
        this.label = label;
        return this;
    }

    @Override
    public String toString() {
        return label == null ? "cluster" : label;
    }
}
