package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;

import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The scheduler's books of the cluster (as Kueue's cache): the nodes, the quota ledger, the
 * scheduler config and each team's admitted workloads, with the versions that let evaluation and
 * planning reuse what they computed while nothing changed. It is the live {@link ClusterView}
 * preemption planning works on. Pending workloads are not here: see {@link TeamQueue}.
 */
final class ClusterCache implements ClusterView {

    private final QuotaLedger ledger = new QuotaLedger();
    private final Topology topology;
    private final Map<String, Node> nodesByName = new HashMap<>();
    /** Per team, its admitted workloads by id in admission order. */
    private final Map<String, Map<String, RunningWorkload>> running = new TreeMap<>();
    /**
     * Per team, bumped whenever its running workloads change: preemption planning reuses lists built at the same count.
     * One-element arrays kept for good and updated in place, as {@link #usageCounter}.
     */
    private final Map<String, long[]> runningVersions = new HashMap<>();
    private SchedulerConfig config = SchedulerConfig.DEFAULT;
    /** Bumped on every change of usage, quotas, nodes or config: what was evaluated at an older version is re-checked. */
    private long version;
    /**
     * Bumped on every change but of what admitted workloads hold: quotas, nodes, config (and, through the scheduler,
     * a new run). With the usage version per instance type ({@link #usageCounter}) it stamps a blocked verdict ({@link ParkedVerdicts}).
     */
    private long baseVersion;
    /** Per instance type, bumped whenever an admitted workload that asks for it takes, gives back or moves its pods or quota. */
    private final Map<String, long[]> usageVersions = new HashMap<>();

    ClusterCache(Collection<Node> nodes) {
        this.topology = Topology.of(nodes);
        nodes.forEach(n -> {
            nodesByName.put(n.name(), n);
            countCapacity(null, n);
        });
    }

    /** Keeps the ledger's cluster capacity (for idle resource sharing) up to date when a node changes. */
    private void countCapacity(Node before, Node after) {
        if (before != null && before.ready()) {
            ledger.setClusterCapacity(before.instanceType(),
                    ledger.clusterCapacity(before.instanceType()).minus(before.allocatable()));
        }
        if (after != null && after.ready()) {
            ledger.setClusterCapacity(after.instanceType(),
                    ledger.clusterCapacity(after.instanceType()).plus(after.allocatable()));
        }
    }

    // ------------------------------------------------------------ changes

    void setConfig(SchedulerConfig config) {
        this.config = config;
        bumpVersion();
        ledger.setIdleResourceSharing(config.idleResourceSharing());
    }

    /** Adds or replaces a node (reservations on it are kept). */
    void upsertNode(Node node) {
        bumpVersion();
        topology.upsertNode(node);
        countCapacity(nodesByName.put(node.name(), node), node);
    }

    /** Removes a node and whatever was reserved on it. */
    void removeNode(String nodeName) {
        bumpVersion();
        topology.removeNode(nodeName);
        countCapacity(nodesByName.remove(nodeName), null);
    }

    /** The admitted workload now holds its quota and its placement's nodes. */
    void reserve(WorkloadEntry e) {
        ledger.add(e.team(), e.requests());
        topology.reserve(e.workload().podSets(), e.placement());
        running.computeIfAbsent(e.team(), t -> new LinkedHashMap<>()).put(e.id(), e.running());
        changedRunning(e.team());
        changedUsage(e);
    }

    /** The admitted workload gives back its quota and nodes (before it is evicted or finishes). */
    void release(WorkloadEntry e) {
        ledger.remove(e.team(), e.requests());
        topology.release(e.workload().podSets(), e.placement());
        Map<String, RunningWorkload> team = running.get(e.team());
        if (team != null) team.remove(e.id());
        changedRunning(e.team());
        changedUsage(e);
    }

    /** The admitted workload's pods on {@code nodeName} release that node; it keeps running elsewhere. */
    void detachFromNode(WorkloadEntry e, String nodeName) {
        topology.release(e.workload().podSets(), e.placement().onNode(nodeName));
        e.movePods(e.placement().withoutNode(nodeName));
        changedUsage(e);
    }

    /** Replacement pods of an admitted workload now hold their nodes; {@code merged} is its whole new placement. */
    void reserveReplacement(WorkloadEntry e, List<PodSetRequest> lostRequests, Placement replacement, Placement merged) {
        topology.reserve(lostRequests, replacement);
        e.movePods(merged);
        updateRunning(e);
        changedUsage(e);
    }

    /** The admitted workload changed (placement or priority): planning sees the new one. */
    void updateRunning(WorkloadEntry e) {
        Map<String, RunningWorkload> team = running.get(e.team());
        if (team == null || !team.containsKey(e.id())) return;
        team.put(e.id(), e.running());
        changedRunning(e.team());
        changedUsage(e); // planning reads a running workload's priority and placement
    }

    private void changedRunning(String team) {
        runningCounter(team)[0]++;
    }

    /** What admitted workloads hold of the instance types the workload asks for changed. */
    private void changedUsage(WorkloadEntry e) {
        for (String type : e.requests().keySet()) usageVersions.computeIfAbsent(type, t -> new long[1])[0]++;
        version++;
    }

    /** Something outside usage changed (quota, node, config, run): evaluations made before are stale. */
    void bumpVersion() {
        baseVersion++;
        version++;
    }

    /** The version of everything but usage (see {@link #usageCounter}). */
    long baseVersion() {
        return baseVersion;
    }

    /**
     * The instance type's usage version, bumped whenever what admitted workloads hold of it changes: a one-element array
     * the cache keeps for good and updates in place, so that a reader may keep it and read the version without a lookup.
     */
    long[] usageCounter(String instanceType) {
        return usageVersions.computeIfAbsent(instanceType, t -> new long[1]);
    }

    // ------------------------------------------------------------ reads

    Node node(String name) {
        return nodesByName.get(name);
    }

    /** Every team with admitted workloads. */
    Collection<String> teamsRunning() {
        return running.keySet();
    }

    @Override
    public SchedulerConfig config() {
        return config;
    }

    @Override
    public QuotaLedger ledger() {
        return ledger;
    }

    @Override
    public Collection<RunningWorkload> running(String team) {
        Map<String, RunningWorkload> m = running.get(team);
        return m == null ? List.of() : m.values();
    }

    @Override
    public Topology topology() {
        return topology;
    }

    @Override
    public long version() {
        return version;
    }

    @Override
    public long runningVersion(String team) {
        long[] counter = runningVersions.get(team);
        return counter == null ? 0 : counter[0];
    }

    /**
     * The team's {@link #runningVersion} as a one-element array the cache keeps for good and updates in place: a verdict
     * of the team's may keep it and read the version without a lookup by team.
     */
    long[] runningCounter(String team) {
        return runningVersions.computeIfAbsent(team, t -> new long[1]);
    }
}
