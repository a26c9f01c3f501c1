package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.PlanResult;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.quota.QuotaCheck;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.Share;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The admission engine: per-team queues, admitted workloads with their placements, quota usage,
 * and the nodes. Callers feed it changes ({@link #submit}, {@link #finish}, {@link #evict},
 * {@link #applyQuota}, {@link #upsertNode}, ...) and then run {@link #cycle()}, which admits
 * everything that can be admitted now and returns its decisions.
 *
 * <p>Two modes run the same logic. {@link Mode#IN_PROCESS} (simulator, tests): a workload that
 * fits only by preemption has its victims evicted and is admitted in the same pass.
 * {@link Mode#DELEGATED} (admission-service): the cycle emits {@link Decision.PreemptionNeeded}
 * and leaves the workload pending ({@link PendingReason#WaitingForPreemption}); once the
 * evictions arrive through {@link #evict}, the next cycle admits it ahead of other teams.
 *
 * <p>Workloads found inadmissible are parked and looked at again only after something that can
 * help them happened (a release: finish, eviction, quota, node or config change), as Kueue
 * requeues inadmissible workloads. Not thread-safe: one owner drives it.
 */
public final class Scheduler {

    /** How preemptions are carried out. */
    public enum Mode {
        /** Victims are evicted inside the cycle. */
        IN_PROCESS,
        /** The cycle asks for preemption; another service evicts and reports through {@link #evict}. */
        DELEGATED
    }

    private final Clock clock;
    private final Mode mode;
    private final Map<String, InstanceType> instanceTypes = new TreeMap<>();
    private final QuotaLedger ledger = new QuotaLedger();
    private final Topology topology;
    private final Map<String, TeamQueue> teams = new TreeMap<>();
    private final Map<String, Entry> workloads = new HashMap<>();
    private SchedulerConfig config = SchedulerConfig.DEFAULT;
    private long admissionSeq;
    /** Bumped on every admission or eviction: a candidate evaluated at an older version is re-checked. */
    private long stateVersion;
    /** Something was released since the last cycle: parked workloads get another look. */
    private boolean released;
    private final Set<String> dirtyTeams = new LinkedHashSet<>();
    private final View view = new View();
    private final PreemptionPlanner planner = new PreemptionPlanner();
    /** Nodes by name and what admitted pods hold on each: to re-check a cached placement cheaply. */
    private final Map<String, Node> nodesByName = new HashMap<>();
    private final Map<String, Resources> heldOnNode = new HashMap<>();
    /** Per team, bumped whenever its running workloads change: preemption planning reuses lists built at the same count. */
    private final Map<String, Long> runningVersions = new HashMap<>();
    /**
     * Why workloads of a shape were parked at {@link #parkedShapesVersion}: a later workload of the
     * same team, priority and pod sets gets the same verdict in the same state without being
     * evaluated again (pipelines submit many alike; a full queue re-walked after a release is
     * mostly repeats).
     */
    private final Map<Shape, Verdict> parkedShapes = new HashMap<>();
    private long parkedShapesVersion = -1;
    private final boolean reuseParkedVerdicts;

    public Scheduler(Clock clock, Mode mode, Collection<InstanceType> instanceTypes, Collection<Node> nodes) {
        this(clock, mode, instanceTypes, nodes, true);
    }

    /** With {@code reuseParkedVerdicts} false every workload is evaluated on its own: the reference the shape memo is tested against. */
    Scheduler(Clock clock, Mode mode, Collection<InstanceType> instanceTypes, Collection<Node> nodes, boolean reuseParkedVerdicts) {
        this.reuseParkedVerdicts = reuseParkedVerdicts;
        this.clock = clock;
        this.mode = mode;
        instanceTypes.forEach(t -> this.instanceTypes.put(t.name(), t));
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

    // ---------------------------------------------------------------- inputs

    /** Adds or replaces an instance type (its capacity is used to validate pod requests). */
    public void upsertInstanceType(InstanceType type) {
        instanceTypes.put(type.name(), type);
    }

    /**
     * Replaces the priority classes and the FairShare switch. Every pending and running workload
     * takes its class's new weight at once (queues are reordered; a running workload's new priority
     * counts in later preemption decisions); a class that no longer exists counts as the lowest.
     * Nothing is evicted by the change itself.
     */
    public void applySchedulerConfig(SchedulerConfig newConfig) {
        this.config = newConfig;
        ledger.setIdleResourceSharing(newConfig.idleResourceSharing());
        for (Entry e : workloads.values()) {
            if (e.state != WorkloadState.Pending && e.state != WorkloadState.Admitted) continue;
            String cls = e.workload.priorityClass();
            int p = cls == null ? newConfig.defaultPriority()
                    : newConfig.priorityClasses().getOrDefault(cls, newConfig.defaultPriority());
            if (p != e.workload.priority()) reprioritize(e, p);
        }
        markReleased();
    }

    private void reprioritize(Entry e, int priority) {
        TeamQueue q = teams.get(e.workload.team());
        // both queues are sorted by priority: take the entry out before its priority changes
        boolean active = q != null && q.active.remove(e);
        boolean parked = q != null && q.parked.remove(e);
        Workload w = e.workload;
        e.workload = new Workload(w.id(), w.team(), w.priorityClass(), priority, w.submittedAt(), w.podSets());
        e.shape = Shape.of(e.workload);
        if (active) q.active.add(e);
        if (parked) q.parked.add(e);
        if (q != null && q.running.containsKey(w.id())) {
            RunningWorkload r = q.running.get(w.id());
            q.running.put(w.id(), new RunningWorkload(e.workload, r.placement(), r.admissionSeq()));
            runningVersions.merge(w.team(), 1L, Long::sum);
        }
    }

    /**
     * Adds or replaces a team's quota; it holds for every later decision. A change never evicts by
     * itself: running work above the new nominal plus borrowing limit keeps running, counts as
     * borrowing and may be reclaimed from. Only disabling ({@code active} false) an active quota
     * evicts the team's running workloads ({@link PreemptionReason#QuotaRemoved}, reported by the
     * next {@link #cycle()}); its pending ones wait with {@link PendingReason#NoQuota} until it is
     * enabled again.
     */
    public void applyQuota(TeamQuota quota) {
        TeamQuota before = ledger.quota(quota.team());
        ledger.putQuota(quota);
        teams.computeIfAbsent(quota.team(), TeamQueue::new);
        if (before != null && before.active() && !quota.active()) {
            evictForQuotaRemoved(quota.team(), "the compute quota of team " + quota.team() + " (" + quotaName(quota) + ") was disabled");
        }
        markReleased();
    }

    /**
     * Removes a team's quota: its running workloads are evicted ({@link PreemptionReason#QuotaRemoved},
     * reported by the next {@link #cycle()}) and wait with its pending ones and its new submissions
     * ({@link PendingReason#NoQuota}) until a quota comes back.
     */
    public void removeQuota(String team) {
        TeamQuota before = ledger.quota(team);
        ledger.removeQuota(team);
        if (before != null && before.active()) {
            evictForQuotaRemoved(team, "the compute quota of team " + team + " (" + quotaName(before) + ") was deleted");
        }
        markReleased();
    }

    private static String quotaName(TeamQuota q) {
        return q.quotaName() == null ? q.team() : q.quotaName();
    }

    /**
     * Adds or replaces a node. A new node, or one that is ready again, is free capacity at once. A
     * ready node that becomes not ready fails: see {@link #removeNode}.
     */
    public void upsertNode(Node node) {
        Node before = nodesByName.get(node.name());
        boolean fails = before != null && before.ready() && !node.ready();
        List<Entry> affected = fails ? detachPodsOn(before) : List.of();
        topology.upsertNode(node);
        countCapacity(nodesByName.put(node.name(), node), node);
        if (fails) replaceOrEvict(affected, before, "node " + node.name() + " is not ready");
        markReleased();
    }

    /**
     * Removes a node. Each admitted workload with pods on it (in admission order) gets those pods
     * placed again by the same best-fit descent inside the domain of its required (else preferred)
     * level that held the node, or anywhere for a pod set without topology; its other pods stay. On
     * success the next {@link #cycle()} reports its whole new placement ({@link Decision.Admit#nodeReplaced()});
     * otherwise it is evicted ({@link PreemptionReason#NodeFailure}) and requeued at its original
     * submission time. Then pending heads are tried again.
     */
    public void removeNode(String nodeName) {
        Node before = nodesByName.get(nodeName);
        List<Entry> affected = before == null ? List.of() : detachPodsOn(before);
        topology.removeNode(nodeName);
        countCapacity(nodesByName.remove(nodeName), null);
        heldOnNode.remove(nodeName);
        if (before != null) replaceOrEvict(affected, before, "node " + nodeName + " left the cluster");
        markReleased();
    }

    // ---------------------------------------------------------------- a cluster that changes

    /** Decisions taken outside a cycle (node failures, removed quotas): the next {@link #cycle()} reports them first. */
    private final List<Decision> changeDecisions = new ArrayList<>();

    /** The admitted workloads with pods on a node, in admission order, with those pods released. */
    private List<Entry> detachPodsOn(Node node) {
        List<Entry> affected = new ArrayList<>();
        for (TeamQueue q : teams.values()) {
            for (RunningWorkload r : q.running.values()) {
                Entry e = workloads.get(r.id());
                if (e.placement.podSets().stream().anyMatch(p -> p.podsPerNode().containsKey(node.name()))) affected.add(e);
            }
        }
        affected.sort(Comparator.comparingLong(e -> e.seq));
        for (Entry e : affected) {
            Placement on = e.placement.onNode(node.name());
            topology.release(e.workload.podSets(), on);
            hold(e.workload.podSets(), on, false);
            e.placement = e.placement.withoutNode(node.name());
        }
        return affected;
    }

    /** For each workload that lost pods on {@code failed}: place them again within their domain, or evict it. */
    private void replaceOrEvict(List<Entry> affected, Node failed, String what) {
        for (Entry e : affected) {
            List<Integer> lostIndexes = new ArrayList<>();
            List<PodSetRequest> lost = new ArrayList<>();
            for (int i = 0; i < e.workload.podSets().size(); i++) {
                PodSetRequest ps = e.workload.podSets().get(i);
                int missing = ps.count() - e.placement.podSets().get(i).podCount();
                if (missing > 0) {
                    lostIndexes.add(i);
                    lost.add(replacementOf(ps, missing, failed));
                }
            }
            PlacementResult result = topology.place(lost);
            if (result instanceof PlacementResult.Placed p) {
                replacePlacement(e, lostIndexes, p.placement(), what + "; its pods there moved to " + nodesOf(p.placement()));
            } else {
                PlacementResult.NoFit noFit = (PlacementResult.NoFit) result;
                PodSetRequest ps = e.workload.podSets().stream().filter(x -> x.name().equals(noFit.podSet())).findFirst().orElseThrow();
                PodSetRequest pods = lost.stream().filter(x -> x.name().equals(noFit.podSet())).findFirst().orElseThrow();
                String where = ps.topology().mode() == TopologyRequest.Mode.NONE ? "anywhere in the cluster"
                        : "inside its " + ps.topology().level() + " domain " + failed.levelValue(ps.topology().level());
                evictForNodeFailure(e, what + "; the " + pods.count() + " pod(s) of pod set " + ps.name() + " on it find no room "
                        + where + " (room for " + noFit.fitting() + ")");
            }
        }
    }

    /**
     * The pods a pod set lost, to be placed as a new placement would be, but only on nodes of the
     * domain of its required (else preferred) level that holds the failed node: a node selector on
     * that domain's path from layer-1 down (levels the failed node has no label for are left out,
     * as a selector cannot ask for an empty value). A pod set without topology may go anywhere.
     */
    private static PodSetRequest replacementOf(PodSetRequest ps, int count, Node failed) {
        Map<String, String> selector = new TreeMap<>(ps.nodeSelector());
        if (ps.topology().mode() != TopologyRequest.Mode.NONE) {
            int depth = TopologyLevels.indexOf(ps.topology().level());
            for (String level : TopologyLevels.ALL.subList(0, depth + 1)) {
                String value = failed.levelValue(level);
                if (!value.isEmpty()) selector.put(level, value);
            }
        }
        return new PodSetRequest(ps.name(), count, ps.instanceType(), ps.perPod(), TopologyRequest.NONE, selector);
    }

    /**
     * The workload keeps running on its other nodes plus the replacement pods: its new whole
     * placement is reported as NodeReplaced. Its quota, borrowing and admission order do not change.
     *
     * @param lostIndexes the pod sets (indexes in the workload) that lost pods, in order
     * @param replacement where their lost pods go, one pod set per index
     */
    private void replacePlacement(Entry e, List<Integer> lostIndexes, Placement replacement, String because) {
        List<PodSetRequest> lostRequests = new ArrayList<>();
        List<PodSetPlacement> merged = new ArrayList<>(e.placement.podSets());
        for (int r = 0; r < lostIndexes.size(); r++) {
            int i = lostIndexes.get(r);
            lostRequests.add(e.workload.podSets().get(i));
            merged.set(i, merged.get(i).plus(replacement.podSets().get(r)));
        }
        topology.reserve(lostRequests, replacement);
        hold(lostRequests, replacement, true);
        e.placement = new Placement(merged);
        TeamQueue q = teams.get(e.workload.team());
        q.running.put(e.workload.id(), new RunningWorkload(e.workload, e.placement, e.seq, e.requests));
        runningVersions.merge(e.workload.team(), 1L, Long::sum);
        stateVersion++;
        changeDecisions.add(new Decision.Admit(e.workload.id(), e.workload.team(), e.placement, e.borrowed, clock.instant(), because));
    }

    /** "n3 (1 pod), n4 (2 pods)": where replacement pods went. */
    private static String nodesOf(Placement placement) {
        Map<String, Integer> pods = new TreeMap<>();
        placement.podSets().forEach(p -> p.podsPerNode().forEach((n, c) -> pods.merge(n, c, Integer::sum)));
        List<String> out = new ArrayList<>();
        pods.forEach((n, c) -> out.add(n + " (" + c + (c == 1 ? " pod)" : " pods)")));
        return String.join(", ", out);
    }

    private void evictForNodeFailure(Entry e, String message) {
        evictWithoutPreemptor(e, new Victim(e.workload.id(), e.workload.team(), PreemptionReason.NodeFailure, message));
    }

    private void evictForQuotaRemoved(String team, String message) {
        TeamQueue q = teams.get(team);
        if (q == null) return;
        List<Entry> running = q.running.values().stream().map(r -> workloads.get(r.id()))
                .sorted(Comparator.comparingLong(x -> x.seq)).toList();
        for (Entry e : running) {
            evictWithoutPreemptor(e, new Victim(e.workload.id(), team, PreemptionReason.QuotaRemoved, message));
        }
    }

    /** An eviction the engine decides by itself (no preemptor): requeued, reported by the next cycle. */
    private void evictWithoutPreemptor(Entry e, Victim victim) {
        requeue(e, "evicted (" + victim.reason() + "): " + victim.message());
        changeDecisions.add(new Decision.Evict(victim, clock.instant()));
    }

    private void markReleased() {
        released = true;
        stateVersion++;
    }

    /** The context submissions are validated against. */
    public WorkloadValidation.Context validationContext() {
        // A team whose quota was deleted stays known: its submissions wait (NoQuota) until a quota comes back.
        return new WorkloadValidation.Context(instanceTypes, team -> ledger.quota(team) != null || teams.containsKey(team),
                config, topology.nodes());
    }

    /**
     * Queues a submission (validated here). A known id changes nothing: a workload id seen twice
     * is one workload, and a finished one is not run again.
     */
    public SubmitResult submit(WorkloadSubmitted submission) {
        Entry known = submission.workloadId() == null ? null : workloads.get(submission.workloadId());
        if (known != null) {
            return new SubmitResult.Ignored(known.workload.id(), "workload " + known.workload.id() + " is already known ("
                    + known.state + "); the submission changes nothing");
        }
        WorkloadValidation.Result r = WorkloadValidation.validate(submission, validationContext(), clock.instant());
        if (r instanceof WorkloadValidation.Invalid invalid) {
            Decision.Reject reject = new Decision.Reject(submission.workloadId(), submission.team(), invalid.reason(),
                    invalid.message());
            // an id that breaks the id rule is not kept: it could not be looked up by that id
            if (WorkloadIds.isValid(submission.workloadId())) {
                Entry e = new Entry(placeholder(submission));
                e.state = WorkloadState.Rejected;
                e.reason = invalid.reason().name();
                e.message = invalid.message();
                workloads.put(submission.workloadId(), e);
            }
            return new SubmitResult.Rejected(reject);
        }
        return submit(((WorkloadValidation.Valid) r).workload());
    }

    private Workload placeholder(WorkloadSubmitted s) {
        return new Workload(s.workloadId(), s.team() == null ? "" : s.team(), null, 0,
                s.submittedAt() == null ? clock.instant() : s.submittedAt(), List.of());
    }

    /** Queues an already validated workload (its team must have a quota). */
    public SubmitResult submit(Workload workload) {
        Entry known = workloads.get(workload.id());
        if (known != null) {
            return new SubmitResult.Ignored(workload.id(), "workload " + workload.id() + " is already known ("
                    + known.state + "); the submission changes nothing");
        }
        Entry e = new Entry(workload);
        e.state = WorkloadState.Pending;
        e.reason = PendingReason.Queued.name();
        e.message = "waiting for the next scheduling cycle";
        workloads.put(workload.id(), e);
        TeamQueue q = teams.computeIfAbsent(workload.team(), TeamQueue::new);
        q.active.add(e);
        dirtyTeams.add(workload.team());
        return new SubmitResult.Accepted(workload);
    }

    /**
     * A workload ended. A running one frees its resources; a pending one leaves its queue; an
     * unknown or already finished id changes nothing (and says so).
     */
    public ChangeResult finish(String workloadId) {
        Entry e = workloads.get(workloadId);
        if (e == null) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged, "unknown workload " + workloadId + "; nothing changed");
        }
        switch (e.state) {
            case Admitted -> {
                release(e);
                e.state = WorkloadState.Finished;
                e.reason = null;
                e.message = "finished";
                return new ChangeResult(workloadId, ChangeResult.Outcome.Released, "finished; its resources are free");
            }
            case Pending -> {
                TeamQueue q = teams.get(e.workload.team());
                q.active.remove(e);
                q.parked.remove(e);
                e.state = WorkloadState.Finished;
                e.reason = null;
                e.message = "finished while pending; removed from its queue";
                return new ChangeResult(workloadId, ChangeResult.Outcome.RemovedFromQueue, e.message);
            }
            default -> {
                return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged,
                        "workload " + workloadId + " is already " + e.state + "; nothing changed");
            }
        }
    }

    /**
     * Evicts a running workload (delegated mode: the preemption service decided it): it frees its
     * resources and returns to its queue, pending with reason Preempted, keeping its submission time.
     */
    public ChangeResult evict(Victim victim, String preemptorId) {
        Entry e = workloads.get(victim.workloadId());
        if (e == null || e.state != WorkloadState.Admitted) {
            return new ChangeResult(victim.workloadId(), ChangeResult.Outcome.Unchanged, "workload " + victim.workloadId()
                    + (e == null ? " is unknown" : " is " + e.state) + "; nothing to evict");
        }
        requeueEvicted(e, victim, preemptorId);
        return new ChangeResult(victim.workloadId(), ChangeResult.Outcome.Requeued, e.message);
    }

    /**
     * Puts back a workload that was admitted before (a decider taking over rebuilds its state from
     * its changelog): it holds its recorded placement and quota as admitted at {@code admittedAt},
     * without a cycle and without checking that it fits (quotas or nodes may have changed since;
     * an admitted workload keeps running, as in Kueue). Call in admission order: later preemptions
     * take the most recently admitted first. {@code borrowed} is what its admission recorded (what
     * it borrowed then, shown as is). Nodes of the placement that are not known are skipped. A
     * known id changes nothing.
     */
    public ChangeResult restoreAdmitted(Workload workload, Placement placement, Map<String, Resources> borrowed, Instant admittedAt) {
        Entry known = workloads.get(workload.id());
        if (known != null) {
            return new ChangeResult(workload.id(), ChangeResult.Outcome.Unchanged, "workload " + workload.id()
                    + " is already known (" + known.state + "); nothing restored");
        }
        Entry e = new Entry(workload);
        workloads.put(workload.id(), e);
        TeamQueue q = teams.computeIfAbsent(workload.team(), TeamQueue::new);
        e.borrowed = Map.copyOf(borrowed);
        ledger.add(workload.team(), e.requests);
        topology.reserve(workload.podSets(), placement);
        hold(workload.podSets(), placement, true);
        e.state = WorkloadState.Admitted;
        e.message = "admitted";
        e.placement = placement;
        e.admittedAt = admittedAt;
        e.seq = ++admissionSeq;
        q.running.put(workload.id(), new RunningWorkload(workload, placement, e.seq, e.requests));
        runningVersions.merge(workload.team(), 1L, Long::sum);
        stateVersion++;
        return new ChangeResult(workload.id(), ChangeResult.Outcome.Restored, "restored as admitted at " + admittedAt);
    }

    private void release(Entry e) {
        TeamQueue q = teams.get(e.workload.team());
        ledger.remove(e.workload.team(), e.requests);
        topology.release(e.workload.podSets(), e.placement);
        hold(e.workload.podSets(), e.placement, false);
        q.running.remove(e.workload.id());
        runningVersions.merge(e.workload.team(), 1L, Long::sum);
        e.placement = null;
        e.borrowed = Map.of();
        stateVersion++;
        markReleased();
    }

    private void requeueEvicted(Entry e, Victim victim, String preemptorId) {
        requeue(e, preemptorId == null ? "evicted (" + victim.reason() + "): " + victim.message()
                : "preempted by " + preemptorId + " (" + victim.reason() + "): " + victim.message());
    }

    /** A running workload goes back to its queue, pending with reason Preempted, at its original submission time. */
    private void requeue(Entry e, String message) {
        release(e);
        e.state = WorkloadState.Pending;
        e.reason = PendingReason.Preempted.name();
        e.message = message;
        e.preemptedMessage = e.message;
        e.admittedAt = null;
        teams.get(e.workload.team()).active.add(e);
        dirtyTeams.add(e.workload.team());
    }

    // ---------------------------------------------------------------- the cycle

    /**
     * Admits everything that can be admitted now, in order, and returns the decisions: admissions
     * (with their preemptions in in-process mode), preemption requests (delegated mode), and new
     * pending reasons.
     */
    public List<Decision> cycle() {
        Cycle c = new Cycle();
        c.decisions.addAll(changeDecisions);
        changeDecisions.clear();
        int rounds = 0;
        do {
            c.progress = false;
            requeueParkedAfterRelease();    // 1. a release may help parked workloads
            nominateTeamHeads(c);           // 2. each changed team's first admissible workload
            admitInOrder(c);                // 3. best head first, then look again
        } while (released && c.progress && ++rounds < MAX_ROUNDS); // 4. evictions freed room: another round
        explainPending(c);                  // 5. new reasons for those that stay pending
        return c.decisions;
    }

    /** Admissions with evictions per cycle after which heads are no longer all chosen again (a guard against a preemption loop). */
    private static final int MAX_RECHOICES = 1_000;

    /** A guard against a preemption loop; rules make one impossible, this makes it certain. */
    private static final int MAX_ROUNDS = 10_000;

    /** The work of one cycle. */
    private static final class Cycle {
        final List<Decision> decisions = new ArrayList<>();
        final PriorityQueue<Candidate> heads = new PriorityQueue<>(CANDIDATE_ORDER);
        final Set<Entry> touched = new LinkedHashSet<>();
        /** Delegated mode: preemptors that asked for room in this cycle; what they need is held for them (Kueue). */
        final Set<Entry> held = new LinkedHashSet<>();
        /** Admissions with evictions in this cycle; bounds a preemption loop design.md leaves open. */
        int evictingAdmissions;
        boolean progress;
    }

    private void requeueParkedAfterRelease() {
        if (!released) return;
        released = false;
        for (TeamQueue q : teams.values()) {
            q.requeueParked();
            dirtyTeams.add(q.team);
        }
    }

    private void nominateTeamHeads(Cycle c) {
        for (String team : dirtyTeams) {
            TeamQueue q = teams.get(team);
            if (q == null) continue;
            Candidate cand = findCandidate(q, c);
            if (cand != null) c.heads.add(cand);
        }
        dirtyTeams.clear();
    }

    private void admitInOrder(Cycle c) {
        while (!c.heads.isEmpty()) {
            Candidate head = c.heads.poll();
            if (head.version != stateVersion) {
                // Evaluated afresh, not just re-checked: its best-fit placement is computed on what
                // is free now (design.md: after every admission all pending heads are tried again).
                Candidate fresh = evaluate(head.queue, head.entry, c);
                if (fresh == null) {
                    Candidate next = findCandidate(head.queue, c);
                    if (next != null) c.heads.add(next);
                    continue;
                }
                if (!c.heads.isEmpty() && CANDIDATE_ORDER.compare(fresh, c.heads.peek()) > 0) {
                    c.heads.add(fresh);
                    continue;
                }
                head = fresh;
            }
            if (!c.held.isEmpty() && !head.entry.nominated && !fitsBesideHeld(head.queue, head.entry, c)) {
                continue; // skipped until the preemption is done; its team is looked at again next cycle
            }
            if (head.plan == null) {
                // Delegated mode: a preemptor whose evictions arrived is admitted now, as in-process
                // mode admits it with its evictions: every head is chosen again after it, likewise.
                boolean afterEvictions = head.entry.nominated;
                admit(head.entry, head.placement, c);
                if (afterEvictions && ++c.evictingAdmissions <= MAX_RECHOICES) {
                    chooseEveryHeadAgain(c);
                } else {
                    Candidate next = findCandidate(head.queue, c);
                    if (next != null) c.heads.add(next);
                }
            } else if (mode == Mode.IN_PROCESS) {
                preemptAndAdmit(head, c);
                dirtyTeams.add(head.entry.workload.team());
                if (++c.evictingAdmissions <= MAX_RECHOICES) {
                    chooseEveryHeadAgain(c);
                } else { // a preemption loop (design.md leaves it open): the victims' teams only, parked ones next round
                    c.heads.removeIf(h -> dirtyTeams.contains(h.entry.workload.team()));
                    nominateTeamHeads(c);
                }
            } else {
                requestPreemption(head, c);
            }
        }
    }

    /**
     * design.md: "After every admission or eviction all pending heads are tried again", and a team
     * is represented by its first pending workload in queue order that can be admitted now. After
     * an admission with evictions this is done at once, parked workloads included: the victims free
     * room, and a victim just requeued must not stand before an earlier workload of its team, nor a
     * borrowing head before another team's set-aside one that now fits within its nominal. After
     * other admissions set-aside workloads get their look in the next round (see {@link #admit}).
     */
    private void chooseEveryHeadAgain(Cycle c) {
        for (TeamQueue q : teams.values()) {
            q.requeueParked();
            dirtyTeams.add(q.team);
        }
        c.heads.clear();
        nominateTeamHeads(c);
    }

    private void preemptAndAdmit(Candidate head, Cycle c) {
        Instant now = clock.instant();
        for (Victim v : head.plan.victims()) {
            Entry victim = workloads.get(v.workloadId());
            requeueEvicted(victim, v, head.entry.workload.id());
            c.touched.add(victim);
        }
        c.decisions.add(new Decision.Preempt(head.plan, now));
        c.progress = true;
        PlacementResult placed = topology.place(head.entry.workload.podSets());
        if (placed instanceof PlacementResult.Placed p && ledger.check(head.entry.workload.team(), head.entry.requests, true).fits()) {
            admit(head.entry, p.placement(), c);
        }
        // Otherwise the plan was wrong about this state; the workload stays queued and is looked at again.
    }

    private void requestPreemption(Candidate head, Cycle c) {
        Entry e = head.entry;
        teams.get(e.workload.team()).waitingPreemptor = e;
        if (!e.nominated) {
            e.nominated = true;
            Map<String, Resources> lacking = lacking(e);
            c.decisions.add(new Decision.PreemptionNeeded(e.workload, head.plan, lacking, e.blockedMessage));
        }
        e.reason = PendingReason.WaitingForPreemption.name();
        e.message = "waiting for " + head.plan.victims().size() + " preemption(s): " + e.blockedMessage;
        c.touched.add(e);
        c.held.add(e);
        dirtyTeams.add(e.workload.team()); // the team is held until the evictions arrive; look again next cycle
    }

    /**
     * Delegated mode, as Kueue does while a preemption is in flight: a workload that would need quota a
     * preemptor of this cycle waits for is skipped (stays pending, its team looked at again next cycle);
     * one that fits beside what the preemptors need goes on.
     */
    private boolean fitsBesideHeld(TeamQueue q, Entry e, Cycle c) {
        for (Entry h : c.held) ledger.add(h.workload.team(), h.requests);
        QuotaCheck check;
        try {
            check = ledger.check(e.workload.team(), e.requests, true);
        } finally {
            for (Entry h : c.held) ledger.remove(h.workload.team(), h.requests);
        }
        if (check.fits()) return true;
        String message = check.message() + " (counting what " + c.held.stream().map(h -> h.workload.id()).toList()
                + " wait(s) for by preemption)";
        if (e.preemptedMessage != null) {
            e.reason = PendingReason.Preempted.name();
            e.message = e.preemptedMessage + "; still waiting: " + message;
        } else {
            e.reason = check.reason().name();
            e.message = message;
        }
        c.touched.add(e);
        dirtyTeams.add(q.team);
        return false;
    }

    private void explainPending(Cycle c) {
        for (Entry e : c.touched) {
            if (e.state != WorkloadState.Pending) continue;
            if (e.reason.equals(e.emittedReason) && e.message.equals(e.emittedMessage)) continue;
            e.emittedReason = e.reason;
            e.emittedMessage = e.message;
            c.decisions.add(new Decision.StayPending(e.workload.id(), e.workload.team(), PendingReason.valueOf(e.reason), e.message));
        }
    }

    private void admit(Entry e, Placement placement, Cycle c) {
        TeamQueue q = teams.get(e.workload.team());
        Map<String, Resources> borrowed = ledger.borrowedBy(e.workload.team(), e.requests);
        ledger.add(e.workload.team(), e.requests);
        topology.reserve(e.workload.podSets(), placement);
        hold(e.workload.podSets(), placement, true);
        q.active.remove(e);
        q.parked.remove(e);
        e.state = WorkloadState.Admitted;
        e.reason = null;
        e.message = "admitted";
        e.emittedReason = null;
        e.emittedMessage = null;
        e.placement = placement;
        e.borrowed = borrowed;
        e.admittedAt = clock.instant();
        // Every admission gives the parked workloads another look (design.md: "After every
        // admission or eviction all pending heads are tried again"): the team may now borrow,
        // which lets a lender reclaim and makes its workloads fair-sharing candidates, and a new
        // lower-priority workload is something a parked one of its team may preempt.
        released = true;
        e.nominated = false;
        e.preemptedMessage = null;
        e.seq = ++admissionSeq;
        c.held.remove(e);
        q.running.put(e.workload.id(), new RunningWorkload(e.workload, placement, e.seq, e.requests));
        runningVersions.merge(e.workload.team(), 1L, Long::sum);
        stateVersion++;
        c.touched.remove(e);
        c.progress = true;
        c.decisions.add(new Decision.Admit(e.workload.id(), e.workload.team(), placement, borrowed, e.admittedAt));
    }

    private void hold(List<PodSetRequest> podSets, Placement placement, boolean take) {
        for (int i = 0; i < placement.podSets().size(); i++) {
            Resources perPod = podSets.get(i).perPod();
            placement.podSets().get(i).podsPerNode().forEach((node, count) -> {
                if (nodesByName.containsKey(node)) {
                    heldOnNode.merge(node, perPod.times(count), take ? Resources::plus : Resources::minus);
                }
            });
        }
    }

    /** The team's first workload, in queue order, that can be admitted directly or by preemption; the others are parked. */
    private Candidate findCandidate(TeamQueue q, Cycle c) {
        Entry waiting = q.waitingPreemptor;
        if (waiting != null) {
            q.waitingPreemptor = null;
            // Delegated mode: the preemptor whose evictions were asked for is its team's head
            // while it can still be admitted, ahead of workloads before it in the queue that were
            // set aside when it was chosen. In-process mode admits it in the same step as its
            // evictions, so nothing can take the room it freed; neither may anything here.
            if (waiting.nominated && waiting.state == WorkloadState.Pending && q.active.contains(waiting)) {
                Candidate cand = evaluate(q, waiting, c);
                if (cand != null) {
                    q.waitingPreemptor = waiting;
                    return cand;
                }
            }
        }
        while (!q.active.isEmpty()) {
            Candidate cand = evaluate(q, q.active.first(), c);
            if (cand != null) return cand;
        }
        return null;
    }

    /** Can this workload be admitted now (directly or by preemption)? If not, it is parked with its reason. */
    private Candidate evaluate(TeamQueue q, Entry e, Cycle c) {
        if (parkedShapesVersion != stateVersion) {
            parkedShapes.clear();
            parkedShapesVersion = stateVersion;
        }
        Verdict known = parkedShapes.get(e.shape);
        if (known != null) {
            park(q, e, known.reason(), known.message(), c);
            return null;
        }
        Workload w = e.workload;
        QuotaCheck quota = ledger.check(w.team(), e.requests, true);
        PendingReason reason;
        String message;
        if (quota.fits()) {
            PlacementResult placed = topology.place(w.podSets());
            if (placed instanceof PlacementResult.Placed p) {
                return candidate(q, e, p.placement(), null);
            }
            PlacementResult.NoFit noFit = (PlacementResult.NoFit) placed;
            reason = requiresTopology(w, noFit.podSet()) ? PendingReason.TopologyPlacementFailed : PendingReason.InsufficientCapacity;
            message = "pod set " + noFit.podSet() + ": " + noFit.message();
        } else if (quota.reason() == PendingReason.NoQuota) {
            parkShape(q, e, quota.reason(), quota.message(), c);
            return null;
        } else {
            reason = quota.reason();
            message = quota.message();
        }
        String never = neverAdmissible(w.team(), e.requests);
        if (never != null) {
            reason = PendingReason.Inadmissible;
            message = never;
        }
        PlanResult plan = planner.planFor(view, w);
        if (plan instanceof PreemptionPlan p) {
            e.blockedMessage = message;
            return candidate(q, e, null, p);
        }
        parkShape(q, e, reason, message, c);
        return null;
    }

    /**
     * Why a workload of an active team can never be admitted as things stand, with the numbers, or
     * null when it could be: for some instance type and resource it asks for more than the team's
     * nominal quota plus borrowing limit, or more than the cluster's ready nodes of that type offer
     * altogether. Neither waiting nor preempting helps then; only a larger quota or more nodes do.
     */
    private String neverAdmissible(String team, Map<String, Resources> requests) {
        if (ledger.quota(team) == null || !ledger.quota(team).active()) return null;
        for (Map.Entry<String, Resources> r : requests.entrySet()) {
            String type = r.getKey();
            Resources nominal = ledger.nominal(team, type);
            Resources borrow = ledger.borrowingLimit(team, type);
            Resources capacity = ledger.clusterCapacity(type); // ready nodes' allocatable, kept by countCapacity
            for (ResourceName res : ResourceName.values()) {
                long asked = r.getValue().get(res);
                long ceiling = nominal.plus(borrow).get(res);
                if (asked > ceiling || asked > capacity.get(res)) {
                    return "can never be admitted as things stand: asks for " + Amounts.of(res, asked) + " of " + type
                            + "; team " + team + " may hold at most " + Amounts.number(res, nominal.get(res)) + " nominal + "
                            + Amounts.number(res, borrow.get(res)) + " borrowing limit = " + Amounts.number(res, ceiling)
                            + ", and the cluster's ready " + type + " nodes offer " + Amounts.number(res, capacity.get(res))
                            + "; it stays pending until the quota or the cluster grows";
                }
            }
        }
        return null;
    }

    /** Parks the workload and remembers the verdict for its shape while the state stays the same. */
    private void parkShape(TeamQueue q, Entry e, PendingReason reason, String message, Cycle c) {
        if (reuseParkedVerdicts) parkedShapes.put(e.shape, new Verdict(reason, message));
        park(q, e, reason, message, c);
    }

    /**
     * What evaluation depends on besides the cluster state: the team, the priority and the pod
     * sets (never the id or submission time, which only order the queue).
     */
    private static final class Shape {
        private final String team;
        private final int priority;
        private final List<PodSetRequest> podSets;
        private final int hash; // looked up for every parked workload: hashing the pod sets once

        private Shape(String team, int priority, List<PodSetRequest> podSets) {
            this.team = team;
            this.priority = priority;
            this.podSets = podSets;
            this.hash = java.util.Objects.hash(team, priority, podSets);
        }

        static Shape of(Workload w) {
            return new Shape(w.team(), w.priority(), w.podSets());
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Shape other && hash == other.hash && priority == other.priority
                    && team.equals(other.team) && podSets.equals(other.podSets);
        }

        @Override
        public int hashCode() {
            return hash;
        }
    }

    private record Verdict(PendingReason reason, String message) {
    }

    private static boolean requiresTopology(Workload w, String podSet) {
        return w.podSets().stream().anyMatch(p -> p.name().equals(podSet) && p.topology().mode() == TopologyRequest.Mode.REQUIRED);
    }

    private void park(TeamQueue q, Entry e, PendingReason reason, String message, Cycle c) {
        q.active.remove(e);
        q.parked.add(e);
        e.nominated = false;
        if (e.preemptedMessage != null) {
            e.reason = PendingReason.Preempted.name();
            e.message = e.preemptedMessage + "; still waiting: " + message;
        } else {
            e.reason = reason.name();
            e.message = message;
        }
        c.touched.add(e);
    }

    private Candidate candidate(TeamQueue q, Entry e, Placement placement, PreemptionPlan plan) {
        String team = e.workload.team();
        boolean withinNominal = ledger.withinNominal(team, e.requests);
        Share shareAfter = config.fairShare() ? ledger.shareWith(team, e.requests) : Share.ZERO;
        return new Candidate(q, e, placement, plan, stateVersion, e.nominated, withinNominal, shareAfter);
    }

    /** Per instance type, what the team's quota lacks for this workload now (nothing when only placement lacks). */
    private Map<String, Resources> lacking(Entry e) {
        TeamQuota q = ledger.quota(e.workload.team());
        Map<String, Resources> out = new TreeMap<>();
        if (q == null) return out;
        e.requests.forEach((type, r) -> {
            Resources u = ledger.usage(e.workload.team(), type);
            Resources room = q.ceiling(type).minus(u);
            Resources poolIdle = ledger.poolCapacity(type).minus(ledger.poolUsage(type));
            Resources viaPool = q.guaranteed(type).minus(u).plus(poolIdle);
            Resources missing = Resources.ZERO;
            for (ResourceName n : ResourceName.values()) {
                long avail = Math.min(room.get(n), viaPool.get(n));
                missing = missing.with(n, Math.max(0, r.get(n) - avail));
            }
            if (!missing.isZero()) out.put(type, missing);
        });
        return out;
    }

    /** Heads that fit in their nominal first; then lowest share (FairShare); nominated first of all. */
    private static final Comparator<Candidate> CANDIDATE_ORDER = (a, b) -> {
        if (a.nominated != b.nominated) return a.nominated ? -1 : 1;
        if (a.withinNominal != b.withinNominal) return a.withinNominal ? -1 : 1;
        int c = a.shareAfter.compareTo(b.shareAfter);
        if (c != 0) return c;
        Workload x = a.entry.workload;
        Workload y = b.entry.workload;
        c = Integer.compare(y.priority(), x.priority());
        if (c != 0) return c;
        c = x.submittedAt().compareTo(y.submittedAt());
        return c != 0 ? c : x.team().compareTo(y.team());
    };

    private record Candidate(TeamQueue queue, Entry entry, Placement placement, PreemptionPlan plan, long version,
                             boolean nominated, boolean withinNominal, Share shareAfter) {
    }

    // ---------------------------------------------------------------- dry run

    /**
     * Would this submission be admitted now if it were at the head of its queue: where, borrowing
     * what, after preempting whom. Changes nothing.
     */
    public DryRunResult dryRun(WorkloadSubmitted submission) {
        WorkloadValidation.Result r = WorkloadValidation.validate(submission, validationContext(), clock.instant());
        if (r instanceof WorkloadValidation.Invalid invalid) {
            return new DryRunResult(submission.workloadId(), submission.team(), DryRunResult.Verdict.Rejected,
                    invalid.reason().name(), invalid.message(), null, Map.of(), List.of());
        }
        Workload w = ((WorkloadValidation.Valid) r).workload();
        Map<String, Resources> req = w.requestsByInstanceType();
        QuotaCheck quota = ledger.check(w.team(), req, true);
        String reason;
        String message;
        if (quota.fits()) {
            PlacementResult placed = topology.place(w.podSets());
            if (placed instanceof PlacementResult.Placed p) {
                return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.Admitted, null, "would be admitted now",
                        p.placement(), ledger.borrowedBy(w.team(), req), List.of());
            }
            PlacementResult.NoFit noFit = (PlacementResult.NoFit) placed;
            reason = (requiresTopology(w, noFit.podSet()) ? PendingReason.TopologyPlacementFailed : PendingReason.InsufficientCapacity).name();
            message = "pod set " + noFit.podSet() + ": " + noFit.message();
        } else {
            reason = quota.reason().name();
            message = quota.message();
        }
        String never = quota.reason() == PendingReason.NoQuota ? null : neverAdmissible(w.team(), req);
        if (never != null) {
            return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.Pending, PendingReason.Inadmissible.name(), never,
                    null, Map.of(), List.of());
        }
        if (quota.reason() != PendingReason.NoQuota && PreemptionPlanner.plan(view, w) instanceof PreemptionPlan plan) {
            QuotaLedger l = ledger.copy();
            Topology t = topology.copy();
            for (Victim v : plan.victims()) {
                Entry victim = workloads.get(v.workloadId());
                l.remove(victim.workload.team(), victim.requests);
                t.release(victim.workload.podSets(), victim.placement);
            }
            if (t.place(w.podSets()) instanceof PlacementResult.Placed p) {
                return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.AdmittedAfterPreemption, null,
                        "would be admitted after preempting " + plan.victims().size() + " workload(s); " + message,
                        p.placement(), l.borrowedBy(w.team(), req), plan.victims());
            }
        }
        return new DryRunResult(w.id(), w.team(), DryRunResult.Verdict.Pending, reason, message, null, Map.of(), List.of());
    }

    // ---------------------------------------------------------------- queries

    /** A workload's state, if the id is known. */
    public Optional<WorkloadView> workload(String workloadId) {
        Entry e = workloads.get(workloadId);
        return e == null ? Optional.empty() : Optional.of(e.view());
    }

    /** Every known workload, by id. */
    public List<WorkloadView> workloads() {
        return workloads.values().stream().map(Entry::view).sorted(Comparator.comparing(WorkloadView::workloadId)).toList();
    }

    /** A team's pending workloads in queue order (position 0 is the head). */
    public List<WorkloadView> queue(String team) {
        TeamQueue q = teams.get(team);
        if (q == null) return List.of();
        TreeSet<Entry> all = new TreeSet<>(QUEUE_ORDER);
        all.addAll(q.active);
        all.addAll(q.parked);
        return all.stream().map(Entry::view).toList();
    }

    /** A queued workload as validated, or null when the id is not pending. */
    public Workload pendingWorkload(String workloadId) {
        Entry e = workloads.get(workloadId);
        return e == null || e.state != WorkloadState.Pending ? null : e.workload;
    }

    /** The quota ledger (read it; do not change it). */
    public QuotaLedger ledger() {
        return ledger;
    }

    /** The nodes with what admitted workloads hold on them (read it; do not change it). */
    public Topology topology() {
        return topology;
    }

    public SchedulerConfig config() {
        return config;
    }

    public Mode mode() {
        return mode;
    }

    /** What preemption planning reads: this scheduler's live state. */
    public ClusterView clusterView() {
        return view;
    }

    /** Admitted workloads, by team. */
    public Collection<RunningWorkload> running(String team) {
        TeamQueue q = teams.get(team);
        return q == null ? List.of() : q.running.values();
    }

    // ---------------------------------------------------------------- internals

    /** Higher priority first, then earlier submission, then id. */
    private static final Comparator<Entry> QUEUE_ORDER = (a, b) -> {
        int c = Integer.compare(b.workload.priority(), a.workload.priority());
        if (c != 0) return c;
        c = a.workload.submittedAt().compareTo(b.workload.submittedAt());
        return c != 0 ? c : a.workload.id().compareTo(b.workload.id());
    };

    private static final class TeamQueue {
        final String team;
        /** Waiting to be evaluated, in queue order. */
        TreeSet<Entry> active = new TreeSet<>(QUEUE_ORDER);
        /** Evaluated and found inadmissible; in queue order too, so that requeueing them is a merge. */
        TreeSet<Entry> parked = new TreeSet<>(QUEUE_ORDER);
        /** Delegated mode: the workload that asked for preemptions and waits for them; looked at first. */
        Entry waitingPreemptor;
        final Map<String, RunningWorkload> running = new LinkedHashMap<>();

        TeamQueue(String team) {
            this.team = team;
        }

        /** Every parked workload back to the active queue (usually empty by then: the sets are swapped). */
        void requeueParked() {
            if (parked.isEmpty()) return;
            if (active.isEmpty()) {
                TreeSet<Entry> empty = active;
                active = parked;
                parked = empty;
            } else {
                active.addAll(parked);
                parked.clear();
            }
        }
    }

    private static final class Entry {
        Workload workload;
        Shape shape;
        final Map<String, Resources> requests;
        WorkloadState state;
        String reason;
        String message;
        String emittedReason;
        String emittedMessage;
        String blockedMessage;
        String preemptedMessage;
        Placement placement;
        Map<String, Resources> borrowed = Map.of();
        Instant admittedAt;
        long seq;
        boolean nominated;

        Entry(Workload workload) {
            this.workload = workload;
            this.shape = Shape.of(workload);
            this.requests = workload.requestsByInstanceType();
        }

        WorkloadView view() {
            return new WorkloadView(workload.id(), workload.team(), state, reason, message, workload.priority(),
                    workload.submittedAt(), admittedAt, placement, borrowed);
        }
    }

    private final class View implements ClusterView {
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
            return Scheduler.this.running(team);
        }

        @Override
        public Topology topology() {
            return topology;
        }

        @Override
        public long version() {
            return stateVersion;
        }

        @Override
        public long runningVersion(String team) {
            return runningVersions.getOrDefault(team, 0L);
        }
    }
}
