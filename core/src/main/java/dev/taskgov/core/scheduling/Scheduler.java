package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.PlanResult.PreemptionPlan;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.quota.QuotaCheck;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.quota.Share;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;

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
import java.util.function.Predicate;

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
 *
 * <p>Cycles are grouped into runs ({@link SchedulerRun}): a run begins with the first cycle after an input and lasts
 * while a preemption it asked for is in flight. A workload a preemption evicted in a run may preempt in it only
 * workloads admitted before the run began, so every run is finite (docs/semantics.md, "Every run ends"); a bound on
 * a run's evictions stops preemption should that ever fail ({@link Decision.PreemptionsStopped}).
 *
 * <p>Split as Kueue splits its scheduler: the pending workloads per team are in {@link TeamQueue}s
 * (Kueue's queue manager); the nodes, quota ledger and admitted workloads in the
 * {@link ClusterCache} (Kueue's cache), which is the view preemption planning works on; each
 * workload's state in a {@link WorkloadEntry}, changed only through its named transitions;
 * whether a workload can be admitted now is one {@link Evaluation} that the cycle and the
 * {@link DryRun} share; parked verdicts are remembered per shape in {@link ParkedVerdicts}, and a
 * blocked shape is parked whole in its {@link TeamQueue} (a walk looks at one workload per shape); and
 * what a failed node does to the workloads on it is {@link NodeReplacement}'s. This class feeds
 * changes to them and runs the cycle over them.
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
    /** Nodes, quota usage, config and admitted workloads: what evaluation and planning read. */
    private final ClusterCache cache;
    private final Map<String, TeamQueue> teams = new TreeMap<>();
    private final Map<String, WorkloadEntry> workloads = new HashMap<>();
    private long admissionSeq;
    /** See {@link #evaluations()}. */
    private long evaluations;
    /** Something was released since the last cycle: parked workloads get another look. */
    private boolean released;
    private final Set<String> dirtyTeams = new LinkedHashSet<>();
    private final PreemptionPlanner planner = new PreemptionPlanner();
    /** The verdict memo: a shape's blocked or fitting verdict while what it read of the cache's state stays the same. */
    private final ParkedVerdicts parkedVerdicts;
    /** Verdicts are reused per shape (the memo, and whole shapes parked at once); false in the reference they are tested against. */
    private final boolean reuseParkedVerdicts;
    /** Node failures: the pods lost placed again, or their workloads evicted. */
    private final NodeReplacement nodeReplacement;
    /** The current run of the scheduler (docs/semantics.md, "Every run ends"); null before the first cycle. */
    private SchedulerRun run;
    private long runs;
    /** Counts cycles: each its own number ({@link Cycle#seq}). */
    private long cycles;
    /**
     * An input arrived since the last cycle began. An eviction reported through {@link #evict} is none: it carries out
     * a preemption a cycle asked for, and continues that cycle's run.
     */
    private boolean inputSinceCycle;
    /** Delegated mode: a preemption was still in flight when the last cycle ended, so the next cycle continues its run. */
    private boolean preemptionInFlight;
    /** Gang admission's setting; null while it is off. */
    private WaitForPodsReady waitForPodsReady;
    /** Gang admission: readiness deadlines of admitted workloads and ends of backoffs, earliest first (stale ones skipped). */
    private final PriorityQueue<Timer> timers = new PriorityQueue<>(Comparator.comparing(Timer::at).thenComparingLong(Timer::seq));
    private long timerSeq;

    /**
     * A readiness deadline of an admission ({@code backoff} false: valid while that admission runs with pods not all
     * ready) or the end of a backoff ({@code backoff} true: valid while the workload still backs off until then).
     */
    private record Timer(Instant at, long seq, WorkloadEntry entry, boolean backoff, long admissionSeq) {
        boolean valid() {
            if (backoff) return entry.state() == WorkloadState.Pending && at.equals(entry.backoffUntil());
            return entry.state() == WorkloadState.Admitted && entry.admissionSeq() == admissionSeq && !entry.podsReadyReported();
        }
    }

    public Scheduler(Clock clock, Mode mode, Collection<InstanceType> instanceTypes, Collection<Node> nodes) {
        this(clock, mode, instanceTypes, nodes, true);
    }

    /** With {@code reuseParkedVerdicts} false every workload is evaluated on its own: the reference the shape memo is tested against. */
    Scheduler(Clock clock, Mode mode, Collection<InstanceType> instanceTypes, Collection<Node> nodes, boolean reuseParkedVerdicts) {
        this.clock = clock;
        this.mode = mode;
        instanceTypes.forEach(t -> this.instanceTypes.put(t.name(), t));
        instanceTypes.forEach(t -> knowName(t.name()));
        this.cache = new ClusterCache(nodes);
        this.parkedVerdicts = new ParkedVerdicts(reuseParkedVerdicts);
        this.reuseParkedVerdicts = reuseParkedVerdicts;
        this.nodeReplacement = new NodeReplacement(cache);
    }

    // ---------------------------------------------------------------- inputs

    /**
     * Gang admission on ({@code setting}) or off (null). Admissions from now on must report every pod ready within the
     * setting's timeout ({@link #podsReady}); switching it off drops the deadlines and ends every backoff at once.
     */
    public void waitForPodsReady(WaitForPodsReady setting) {
        inputSinceCycle = true;
        waitForPodsReady = setting;
        if (setting != null) return;
        List<Timer> pending = new ArrayList<>(timers);
        timers.clear();
        for (Timer t : pending) {
            if (t.backoff() && t.valid()) endBackoff(t.entry());
        }
    }

    /** Gang admission's setting, or null while it is off. */
    public WaitForPodsReady waitForPodsReadySetting() {
        return waitForPodsReady;
    }

    /**
     * Every pod of a running workload is ready (gang admission: reported by whoever runs it): its readiness deadline no
     * longer applies. Readiness is reported again after each admission; another state or an unknown id changes nothing.
     */
    public ChangeResult podsReady(String workloadId) {
        inputSinceCycle = true;
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null || e.state() != WorkloadState.Admitted) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged, "workload " + workloadId
                    + (e == null ? " is unknown" : " is " + e.state() + ", not running") + "; readiness changes nothing");
        }
        if (e.podsReadyReported()) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged, "every pod of " + workloadId + " was ready already");
        }
        e.podsReady();
        return new ChangeResult(workloadId, ChangeResult.Outcome.PodsReady, "every pod is ready");
    }

    /** The earliest time at which gang admission has something to do (a readiness deadline, a backoff's end), if any. */
    public Optional<Instant> nextDeadline() {
        while (!timers.isEmpty() && !timers.peek().valid()) timers.poll();
        return timers.isEmpty() ? Optional.empty() : Optional.of(timers.peek().at());
    }

    /**
     * Gang admission's timers that are due by the scheduler's clock, in time order: an admitted workload whose pods are
     * not all ready by its deadline is evicted ({@link PreemptionReason#PodsReadyTimeout}, no preemptor) and backs off,
     * or, with no requeue left, ends Rejected ({@link RejectReason#RequeuingLimitExceeded}); a workload whose backoff
     * ended goes back to its queue. Both are reported by the cycle that runs them.
     */
    private void fireDueTimers() {
        Instant now = clock.instant();
        while (!timers.isEmpty() && !timers.peek().at().isAfter(now)) {
            Timer t = timers.poll();
            if (!t.valid()) continue;
            inputSinceCycle = true;
            if (t.backoff()) endBackoff(t.entry());
            else readinessTimedOut(t.entry(), t.at());
        }
    }

    private void readinessTimedOut(WorkloadEntry e, Instant at) {
        WaitForPodsReady setting = waitForPodsReady;
        String how = "not every pod was ready " + setting.timeout() + " after its admission at " + e.admittedAt();
        Victim victim = new Victim(e.id(), e.team(), PreemptionReason.PodsReadyTimeout, how);
        if (!setting.mayRequeue(e.readinessRequeues())) {
            release(e);
            e.rejectAfterRequeues("evicted (PodsReadyTimeout): " + how + "; requeued "
                    + dev.taskgov.core.model.Amounts.count(e.readinessRequeues(), "time", "times")
                    + " already, the most allowed (backoffLimitCount " + setting.backoffLimitCount() + ")");
            changeDecisions.add(new Decision.Evict(victim, at));
            changeDecisions.add(new Decision.Reject(e.id(), e.team(), RejectReason.RequeuingLimitExceeded, e.message()));
            return;
        }
        Instant until = at.plus(setting.backoff(e.readinessRequeues() + 1));
        release(e);
        e.backOff("evicted (PodsReadyTimeout): " + how, until);
        timers.add(new Timer(until, ++timerSeq, e, true, 0));
        changeDecisions.add(new Decision.Evict(victim, at));
        changeDecisions.add(new Decision.StayPending(e.id(), e.team(), e.pendingReason(), e.message()));
        e.reportPending(); // reported just now: the cycle's own report of changes leaves it out
    }

    /** The backoff is over: the workload waits in its queue again by the usual rules. */
    private void endBackoff(WorkloadEntry e) {
        e.backoffEnded();
        teams.get(e.team()).add(e);
        dirtyTeams.add(e.team());
    }

    /** Adds or replaces an instance type (its capacity is used to validate pod requests). */
    public void upsertInstanceType(InstanceType type) {
        inputSinceCycle = true;
        instanceTypes.put(type.name(), type);
        knowName(type.name());
    }

    /**
     * Replaces the priority classes and the FairShare switch. Every pending and running workload
     * takes its class's new weight at once (queues are reordered; a running workload's new priority
     * counts in later preemption decisions); a class that no longer exists counts as the lowest.
     * Nothing is evicted by the change itself.
     */
    public void applySchedulerConfig(SchedulerConfig newConfig) {
        inputSinceCycle = true;
        cache.setConfig(newConfig);
        for (WorkloadEntry e : workloads.values()) {
            if (e.state() != WorkloadState.Pending && e.state() != WorkloadState.Admitted) continue;
            String cls = e.workload().priorityClass();
            int p = cls == null ? newConfig.defaultPriority()
                    : newConfig.priorityClasses().getOrDefault(cls, newConfig.defaultPriority());
            if (p != e.workload().priority()) reprioritize(e, p);
        }
        markReleased();
    }

    private void reprioritize(WorkloadEntry e, int priority) {
        TeamQueue q = teams.get(e.team());
        if (q == null) {
            e.reprioritize(priority);
        } else {
            q.reorder(e, () -> e.reprioritize(priority));
        }
        cache.updateRunning(e);
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
        inputSinceCycle = true;
        TeamQuota before = ledger().quota(quota.team());
        knowName(quota.team());
        ledger().putQuota(quota);
        teams.computeIfAbsent(quota.team(), this::newQueue);
        if (before != null && before.active() && !quota.active()) {
            evictForQuotaRemoved(quota.team(), "the compute quota of team " + quota.team() + " (" + quotaName(quota) + ") was disabled");
        }
        markReleased();
    }

    /**
     * {@link #applyQuota} for each, in order, with the quota pool added up once (a restore applies every team's
     * quota at once). A quota that disables an enabled one evicts, which needs the pool as of each change: then they
     * are applied one at a time.
     */
    public void applyQuotas(List<TeamQuota> quotas) {
        for (TeamQuota q : quotas) {
            TeamQuota before = ledger().quota(q.team());
            if (before != null && before.active() && !q.active()) {
                quotas.forEach(this::applyQuota);
                return;
            }
        }
        if (quotas.stream().map(TeamQuota::team).distinct().count() != quotas.size()) {
            quotas.forEach(this::applyQuota); // a team twice: the later one wins, and may disable the earlier
            return;
        }
        inputSinceCycle = true;
        quotas.forEach(q -> knowName(q.team()));
        ledger().putQuotas(quotas);
        for (TeamQuota q : quotas) teams.computeIfAbsent(q.team(), this::newQueue);
        markReleased();
    }

    /**
     * Removes a team's quota: its running workloads are evicted ({@link PreemptionReason#QuotaRemoved},
     * reported by the next {@link #cycle()}) and wait with its pending ones and its new submissions
     * ({@link PendingReason#NoQuota}) until a quota comes back.
     */
    public void removeQuota(String team) {
        inputSinceCycle = true;
        TeamQuota before = ledger().quota(team);
        ledger().removeQuota(team);
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
        inputSinceCycle = true;
        Node before = cache.node(node.name());
        boolean fails = before != null && before.ready() && !node.ready();
        List<WorkloadEntry> affected = fails ? nodeReplacement.detachPodsOn(before, workloads::get) : List.of();
        cache.upsertNode(node);
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
        inputSinceCycle = true;
        Node before = cache.node(nodeName);
        List<WorkloadEntry> affected = before == null ? List.of() : nodeReplacement.detachPodsOn(before, workloads::get);
        cache.removeNode(nodeName);
        if (before != null) replaceOrEvict(affected, before, "node " + nodeName + " left the cluster");
        markReleased();
    }

    // ---------------------------------------------------------------- a cluster that changes

    /** Decisions taken outside a cycle (node failures, removed quotas): the next {@link #cycle()} reports them first. */
    private final List<Decision> changeDecisions = new ArrayList<>();

    /** For each workload that lost pods on {@code failed}, in admission order: its pods placed again within their domain, or it is evicted. */
    private void replaceOrEvict(List<WorkloadEntry> affected, Node failed, String what) {
        for (WorkloadEntry e : affected) {
            NodeReplacement.Outcome outcome = nodeReplacement.replace(e, failed, what, clock.instant());
            if (outcome instanceof NodeReplacement.Replaced replaced) {
                changeDecisions.add(replaced.decision());
            } else {
                evictWithoutPreemptor(e, ((NodeReplacement.Lost) outcome).victim());
            }
        }
    }

    private void evictForQuotaRemoved(String team, String message) {
        List<WorkloadEntry> running = cache.running(team).stream().map(r -> workloads.get(r.id()))
                .sorted(Comparator.comparingLong(WorkloadEntry::admissionSeq)).toList();
        for (WorkloadEntry e : running) {
            evictWithoutPreemptor(e, new Victim(e.id(), team, PreemptionReason.QuotaRemoved, message));
        }
    }

    /** An eviction the engine decides by itself (no preemptor): requeued, reported by the next cycle. */
    private void evictWithoutPreemptor(WorkloadEntry e, Victim victim) {
        requeue(e, "evicted (" + victim.reason() + "): " + victim.message(), Shape.ANY_VICTIM);
        changeDecisions.add(new Decision.Evict(victim, clock.instant()));
    }

    private void markReleased() {
        released = true;
        cache.bumpVersion();
    }

    /** The context submissions are validated against. */
    public WorkloadValidation.Context validationContext() {
        // A team whose quota was deleted stays known: its submissions wait (NoQuota) until a quota comes back.
        return new WorkloadValidation.Context(instanceTypes, team -> ledger().quota(team) != null || teams.containsKey(team),
                config(), topology().nodes());
    }

    /**
     * Queues a submission (validated here). A known id changes nothing: a workload id seen twice
     * is one workload, and a finished one is not run again. The id belongs to the team that first
     * submitted it: another team's submission of it is refused ({@link SubmitResult.IdTaken}).
     */
    public SubmitResult submit(WorkloadSubmitted submission) {
        inputSinceCycle = true;
        WorkloadEntry known = submission.workloadId() == null ? null : workloads.get(submission.workloadId());
        if (known != null && !known.team().equals(submission.team())) {
            return new SubmitResult.IdTaken(new WorkloadIdTaken(known.id(), submission.team()));
        }
        if (known != null) {
            return new SubmitResult.Ignored(known.id(), "workload " + known.id() + " is already known ("
                    + known.state() + "); the submission changes nothing");
        }
        WorkloadValidation.Result r = WorkloadValidation.validate(submission, validationContext(), clock.instant());
        if (r instanceof WorkloadValidation.Invalid invalid) {
            Decision.Reject reject = new Decision.Reject(submission.workloadId(), submission.team(), invalid.reason(),
                    invalid.message());
            // an id that breaks the id rule is not kept: it could not be looked up by that id
            if (WorkloadIds.isValid(submission.workloadId())) {
                workloads.put(submission.workloadId(), WorkloadEntry.rejected(placeholder(submission), invalid.reason(), invalid.message()));
            }
            return new SubmitResult.Rejected(reject);
        }
        return submit(((WorkloadValidation.Valid) r).workload());
    }

    /**
     * One instance of each team and instance type name the scheduler was given (by quotas and instance types). A decoded
     * workload brings copies of its own, and every check of it looks its team and types up by name: with the names
     * replaced by these a look-up compares references, where comparing the characters of ten thousand cold copies was
     * a memory wait each in a deep queue's walks.
     */
    private final Map<String, String> names = new HashMap<>();

    private void knowName(String name) {
        names.putIfAbsent(name, name);
    }

    private String known(String name) {
        String same = names.get(name);
        return same == null ? name : same;
    }

    /** The workload with its team and instance type names replaced by the instances the scheduler knows ({@link #names}). */
    private Workload withKnownNames(Workload w) {
        String team = known(w.team());
        List<PodSetRequest> sets = w.podSets();
        List<PodSetRequest> renamed = null;
        for (int i = 0; i < sets.size(); i++) {
            PodSetRequest p = sets.get(i);
            String type = known(p.instanceType());
            if (type == p.instanceType()) continue;
            if (renamed == null) renamed = new ArrayList<>(sets);
            renamed.set(i, new PodSetRequest(p.name(), p.count(), type, p.perPod(), p.topology(), p.nodeSelector()));
        }
        if (team == w.team() && renamed == null) return w;
        return new Workload(w.id(), team, w.priorityClass(), w.priority(), w.submittedAt(), renamed == null ? sets : renamed,
                w.maxRetries());
    }

    private Workload placeholder(WorkloadSubmitted s) {
        return new Workload(s.workloadId(), s.team() == null ? "" : s.team(), null, 0,
                s.submittedAt() == null ? clock.instant() : s.submittedAt(), List.of());
    }

    /** Queues an already validated workload (its team must have a quota). */
    public SubmitResult submit(Workload submitted) {
        inputSinceCycle = true;
        Workload workload = withKnownNames(submitted);
        WorkloadEntry known = workloads.get(workload.id());
        if (known != null && !known.team().equals(workload.team())) {
            return new SubmitResult.IdTaken(new WorkloadIdTaken(known.id(), workload.team()));
        }
        if (known != null) {
            return new SubmitResult.Ignored(workload.id(), "workload " + workload.id() + " is already known ("
                    + known.state() + "); the submission changes nothing");
        }
        WorkloadEntry e = WorkloadEntry.queued(workload);
        workloads.put(workload.id(), e);
        teams.computeIfAbsent(workload.team(), this::newQueue).add(e);
        dirtyTeams.add(workload.team());
        return new SubmitResult.Accepted(workload);
    }

    /**
     * A workload ended. A running one frees its resources; a pending one leaves its queue; an
     * unknown or already finished id changes nothing (and says so).
     */
    public ChangeResult finish(String workloadId) {
        inputSinceCycle = true;
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged, "unknown workload " + workloadId + "; nothing changed");
        }
        switch (e.state()) {
            case Admitted -> {
                release(e);
                e.finish();
                return new ChangeResult(workloadId, ChangeResult.Outcome.Released, "finished; its resources are free");
            }
            case Pending -> {
                teams.get(e.team()).remove(e);
                e.finishWhilePending();
                return new ChangeResult(workloadId, ChangeResult.Outcome.RemovedFromQueue, e.message());
            }
            default -> {
                return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged,
                        "workload " + workloadId + " is already " + e.state() + "; nothing changed");
            }
        }
    }

    /**
     * A workload failed. An admitted one with retries left ({@link Workload#maxRetries()}) is not
     * finished: it frees its resources, counts the retry and waits again in its queue (reason
     * {@link PendingReason#RetryAfterFailure}), queued as of {@code failedAt}, behind what waited while it ran
     * (Kueue's requeuing timestamp {@code Eviction}), to be admitted again by the usual rules. Otherwise the
     * failure is final, as {@link #finish} (a pending workload leaves its queue).
     *
     * @param failedAt when it failed (the finish record's time, as a submission's time orders the queue), so that
     *                 a replay orders the retry as the original run did
     */
    public ChangeResult fail(String workloadId, Instant failedAt) {
        inputSinceCycle = true;
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null || e.state() != WorkloadState.Admitted) return finish(workloadId);
        if (!e.retriesLeft()) {
            release(e);
            int max = e.workload().maxRetries();
            e.finish(max == 0 ? "failed (no retries); its resources are free"
                    : "failed with no retries left (" + e.retries() + " of " + max + " used); its resources are free");
            return new ChangeResult(workloadId, ChangeResult.Outcome.Released, e.message());
        }
        release(e);
        e.retryAfterFailure(failedAt);
        teams.get(e.team()).add(e);
        dirtyTeams.add(e.team());
        return new ChangeResult(workloadId, ChangeResult.Outcome.Retrying, e.message());
    }

    /** A workload failed now: {@link #fail(String, Instant)} at the scheduler's time. */
    public ChangeResult fail(String workloadId) {
        return fail(workloadId, clock.instant());
    }

    /**
     * A workload that ended (Finished or Rejected) is forgotten: its entry goes, so its id is unknown again and a
     * later submission with that id is a new workload (the retention of finished workloads elapsed; Kueue deletes
     * such a Workload object). A pending or running workload is not forgotten (it still holds a place in a queue or
     * quota): that, and an unknown id, change nothing.
     */
    public ChangeResult forget(String workloadId) {
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged, "unknown workload " + workloadId + "; nothing changed");
        }
        if (!e.state().hasEnded()) {
            return new ChangeResult(workloadId, ChangeResult.Outcome.Unchanged,
                    "workload " + workloadId + " is " + e.state() + ", not ended; it is kept");
        }
        workloads.remove(workloadId);
        return new ChangeResult(workloadId, ChangeResult.Outcome.Forgotten,
                "forgotten: it was " + e.state() + " and its retention elapsed");
    }

    /**
     * Puts back how many retries a restored workload had used ({@link #restoreAdmitted}, or a pending one
     * {@link #submit}ted again, queued as of its failure): a decider taking over counts on from there. A
     * pending one that retries says so again (RetryAfterFailure). An unknown id changes nothing.
     */
    public void restoreRetries(String workloadId, int used) {
        WorkloadEntry e = workloads.get(workloadId);
        if (e != null && used > 0) e.restoreRetries(used);
    }

    /**
     * Gang admission's state of a workload (docs/semantics.md, "Gang admission"), what a decider records so that one
     * taking over can put it back ({@link #restoreReadiness}).
     *
     * @param podsReady    every pod of its current admission was reported ready
     * @param requeues     how many times it was requeued after its pods missed the readiness timeout
     * @param backoffUntil the end of the backoff it waits out (Pending, reason Backoff), else null
     */
    public record Readiness(boolean podsReady, int requeues, Instant backoffUntil) {
        /** Nothing to remember: never reported ready, never requeued. */
        public static final Readiness NONE = new Readiness(false, 0, null);
    }

    /** A workload's gang admission state ({@link Readiness}), if the id is known. */
    public Optional<Readiness> readiness(String workloadId) {
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null) return Optional.empty();
        return Optional.of(new Readiness(e.state() == WorkloadState.Admitted && e.podsReadyReported(), e.readinessRequeues(),
                e.isPending() ? e.backoffUntil() : null));
    }

    /**
     * Puts back a restored workload's gang admission state ({@link #restoreAdmitted}, or a pending one {@link #submit}ted
     * again; a decider taking over): the requeues it used, an admitted one's readiness, and a pending one's backoff,
     * which takes it out of its queue until it ends (at once if that time has passed, by the next cycle). With gang
     * admission off there is no backoff to wait out. An unknown id changes nothing.
     */
    public void restoreReadiness(String workloadId, Readiness readiness) {
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null || readiness == null) return;
        inputSinceCycle = true;
        e.restoreReadinessRequeues(readiness.requeues());
        if (readiness.podsReady() && e.state() == WorkloadState.Admitted) e.podsReady();
        if (readiness.backoffUntil() != null && e.isPending() && waitForPodsReady != null) {
            if (e.inQueue) teams.get(e.team()).remove(e);
            e.restoreBackoff(readiness.backoffUntil());
            timers.add(new Timer(readiness.backoffUntil(), ++timerSeq, e, true, 0));
        }
    }

    /**
     * Evicts a running workload (delegated mode: the preemption service decided it): it frees its
     * resources and returns to its queue, pending with reason Preempted, keeping its submission time.
     */
    public ChangeResult evict(Victim victim, String preemptorId) {
        WorkloadEntry e = workloads.get(victim.workloadId());
        if (e == null || e.state() != WorkloadState.Admitted) {
            return new ChangeResult(victim.workloadId(), ChangeResult.Outcome.Unchanged, "workload " + victim.workloadId()
                    + (e == null ? " is unknown" : " is " + e.state()) + "; nothing to evict");
        }
        requeueEvicted(e, victim, preemptorId);
        return new ChangeResult(victim.workloadId(), ChangeResult.Outcome.Requeued, e.message());
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
    public ChangeResult restoreAdmitted(Workload restored, Placement placement, Map<String, Resources> borrowed, Instant admittedAt) {
        inputSinceCycle = true;
        Workload workload = withKnownNames(restored);
        WorkloadEntry known = workloads.get(workload.id());
        if (known != null) {
            return new ChangeResult(workload.id(), ChangeResult.Outcome.Unchanged, "workload " + workload.id()
                    + " is already known (" + known.state() + "); nothing restored");
        }
        WorkloadEntry e = WorkloadEntry.restored(workload, placement, borrowed, admittedAt, ++admissionSeq);
        workloads.put(workload.id(), e);
        teams.computeIfAbsent(workload.team(), this::newQueue);
        cache.reserve(e);
        if (waitForPodsReady != null) { // its readiness, if reported before, is put back through podsReady
            timers.add(new Timer(admittedAt.plus(waitForPodsReady.timeout()), ++timerSeq, e, false, e.admissionSeq()));
        }
        return new ChangeResult(workload.id(), ChangeResult.Outcome.Restored, "restored as admitted at " + admittedAt);
    }

    /**
     * An admitted workload gives back its quota and nodes; pending workloads get another look. Only the usage of its
     * instance types changed (the cache's version of them): verdicts parked on other types stay exact.
     */
    private void release(WorkloadEntry e) {
        cache.release(e);
        released = true;
    }

    /**
     * An eviction by a preemption also limits the victim's own victims for the rest of the run (docs/semantics.md,
     * "Every run ends"), and counts against the run's bound; an eviction without a preemptor does neither.
     */
    private void requeueEvicted(WorkloadEntry e, Victim victim, String preemptorId) {
        if (preemptorId == null || !victim.reason().hasPreemptor() || run == null) {
            requeue(e, "evicted (" + victim.reason() + "): " + victim.message(), Shape.ANY_VICTIM);
            return;
        }
        requeue(e, "preempted by " + preemptorId + " (" + victim.reason() + "): " + victim.message(), run.admittedUpTo);
        run.limited.add(e);
        run.countEviction(e.id(), preemptorId, e.team());
    }

    /**
     * A running workload goes back to its queue, pending with reason Preempted, at its original submission time, its
     * victims limited to workloads admitted up to {@code victimsAdmittedUpTo} ({@link Shape#ANY_VICTIM}: no limit).
     */
    private void requeue(WorkloadEntry e, String message, long victimsAdmittedUpTo) {
        release(e);
        e.evicted(message);
        if (victimsAdmittedUpTo != Shape.ANY_VICTIM) e.limitVictims(victimsAdmittedUpTo);
        teams.get(e.team()).add(e);
        dirtyTeams.add(e.team());
    }

    // ---------------------------------------------------------------- the cycle

    /**
     * Cycles until a cycle admits, evicts and preempts nothing, as a simulation does between two inputs, handing each
     * decision to {@code handle}, which returns whether it changed this scheduler itself (a delegated preemption it
     * carried out), so that the next cycle must look again.
     */
    public void cycleUntilQuiet(Predicate<Decision> handle) {
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Decision d : cycle()) {
                boolean changedByHandler = handle.test(d);
                changed |= changedByHandler || d instanceof Decision.Admit || d instanceof Decision.Evict
                        || d instanceof Decision.Preempt;
            }
        }
    }

    /**
     * Admits everything that can be admitted now, in order, and returns the decisions: admissions
     * (with their preemptions in in-process mode), preemption requests (delegated mode), and new
     * pending reasons.
     */
    public List<Decision> cycle() {
        Cycle c = new Cycle(++cycles);
        fireDueTimers();
        beginRunIfDue();
        c.decisions.addAll(changeDecisions);
        changeDecisions.clear();
        do {
            c.progress = false;
            requeueParkedAfterRelease();    // 1. a release may help parked workloads
            nominateTeamHeads(c);           // 2. each changed team's first admissible workload
            admitInOrder(c);                // 3. best head first, then look again
        } while (released && c.progress);   // 4. evictions freed room: another round (finite: every run ends)
        explainPending(c);                  // 5. new reasons for those that stay pending
        preemptionInFlight = preemptionInFlight();
        Decision stopped = run.takeStopReport();
        if (stopped != null) c.decisions.add(stopped);
        return c.decisions;
    }

    /**
     * A new run begins with the first cycle after an input, unless a preemption is still in flight (delegated mode:
     * the inputs then join the run that asked for it). The limits the last run put on its evicted workloads are lifted
     * as it begins, and the workloads parked under them are looked at again: in the new run they were not evicted.
     */
    private void beginRunIfDue() {
        boolean due = run == null || inputSinceCycle && !preemptionInFlight;
        inputSinceCycle = false;
        if (!due) return;
        if (run != null && !run.limited.isEmpty()) {
            for (WorkloadEntry e : run.limited) {
                if (!e.victimsLimited()) continue;
                if (e.isPending() && e.inQueue) teams.get(e.team()).reorder(e, e::liftVictimLimit);
                else e.liftVictimLimit();
            }
            markReleased();
        }
        // The bound is far above what the rules allow: each workload admitted when the run began is removed at most
        // once, and each other workload preempts at most once.
        run = new SchedulerRun(++runs, admissionSeq, evictionBound > 0 ? evictionBound : 4L * workloads.size() + 64);
    }

    /** A fixed bound on the preemption evictions of a run instead of the one the rules imply (0: that one). */
    private long evictionBound;

    /** Tests of the guard: every run may evict at most {@code bound} workloads by preemption. */
    void boundEvictionsPerRun(long bound) {
        evictionBound = bound;
    }

    /** Delegated mode: a preemptor asked for evictions and still waits for them. */
    private boolean preemptionInFlight() {
        if (mode != Mode.DELEGATED) return false;
        for (TeamQueue q : teams.values()) {
            WorkloadEntry w = q.waitingPreemptor;
            if (w != null && w.isPending() && w.nominated()) return true;
        }
        return false;
    }

    /** The work of one cycle. */
    private static final class Cycle {
        final List<Decision> decisions = new ArrayList<>();
        final PriorityQueue<Candidate> heads = new PriorityQueue<>(CANDIDATE_ORDER);
        final Set<WorkloadEntry> touched = new LinkedHashSet<>();
        /** Shapes parked whole in this cycle, each once: their workloads take their verdicts before it ends (TeamQueue.giveVerdict). */
        final List<TeamQueue.ShapeQueue> parkedShapes = new ArrayList<>();
        /** Delegated mode: preemptors that asked for room in this cycle; what they need is held for them (Kueue). */
        final Set<WorkloadEntry> held = new LinkedHashSet<>();
        /** Delegated mode: the plan each held preemptor asked for. */
        final Map<WorkloadEntry, PreemptionPlan> heldPlans = new LinkedHashMap<>();
        boolean progress;
        /** This cycle's number: a shape listed in {@link #parkedShapes} carries it ({@link TeamQueue.ShapeQueue#listedInCycle}). */
        final long seq;

        Cycle(long seq) {
            this.seq = seq;
        }

        /**
         * The shapes join {@link #parkedShapes}, those not in it yet: every walk of a cycle parks its team's blocked shapes
         * again, and a set asked for each of them cost a twentieth of a drain of distinct workloads.
         */
        void parked(List<TeamQueue.ShapeQueue> shapes) {
            for (TeamQueue.ShapeQueue sq : shapes) {
                if (sq.listedInCycle == seq) continue;
                sq.listedInCycle = seq;
                parkedShapes.add(sq);
            }
        }
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
            if (head.version != cache.version()) {
                // Evaluated afresh, not just re-checked: its best-fit placement is computed on what
                // is free now (docs/semantics.md, "Which head goes first": after every admission the remaining heads are evaluated again).
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
            if (!c.held.isEmpty() && !head.entry.nominated() && !fitsBesideHeld(head, c)) {
                continue; // skipped until the preemption is done; its team is looked at again next cycle
            }
            if (head.plan == null) {
                // Delegated mode: a preemptor whose evictions arrived is admitted now, as in-process
                // mode admits it with its evictions: every head is chosen again after it, likewise.
                boolean afterEvictions = head.entry.nominated();
                admit(head.entry, head.placement, c);
                if (afterEvictions) {
                    chooseEveryHeadAgain(c);
                } else {
                    Candidate next = findCandidate(head.queue, c);
                    if (next != null) c.heads.add(next);
                }
            } else if (mode == Mode.IN_PROCESS) {
                preemptAndAdmit(head, c);
                dirtyTeams.add(head.entry.team());
                chooseEveryHeadAgain(c);
            } else {
                requestPreemption(head, c);
            }
        }
    }

    /**
     * docs/semantics.md, "Team heads": after an admission that evicted workloads every head is chosen again, and a team
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
            WorkloadEntry victim = workloads.get(v.workloadId());
            requeueEvicted(victim, v, head.entry.id());
            c.touched.add(victim);
        }
        c.decisions.add(new Decision.Preempt(head.plan, now));
        c.progress = true;
        PlacementResult placed = topology().place(head.entry.workload().podSets());
        if (placed instanceof PlacementResult.Placed p && ledger().check(head.entry.team(), head.entry.requests(), true).fits()) {
            admit(head.entry, p.placement(), c);
        }
        // Otherwise the plan was wrong about this state; the workload stays queued and is looked at again.
    }

    private void requestPreemption(Candidate head, Cycle c) {
        WorkloadEntry e = head.entry;
        teams.get(e.team()).waitingPreemptor = e;
        if (e.waitForPreemption(head.plan.victims().size())) {
            c.decisions.add(new Decision.PreemptionNeeded(e.workload(), head.plan, ledger().lacking(e.team(), e.requests()),
                    e.blockedMessage(), e.victimsLimited() ? admittedAfter(e.victimsAdmittedUpTo()) : Set.of()));
        }
        c.touched.add(e);
        c.held.add(e);
        c.heldPlans.put(e, head.plan);
        dirtyTeams.add(e.team()); // the team is held until the evictions arrive; look again next cycle
    }

    /** The running workloads admitted after {@code admissionSeq}: those a workload evicted in this run may not preempt. */
    private Set<String> admittedAfter(long admissionSeq) {
        Set<String> out = new TreeSet<>();
        for (String team : teams.keySet()) {
            for (RunningWorkload r : cache.running(team)) {
                if (r.admissionSeq() > admissionSeq) out.add(r.id());
            }
        }
        return out;
    }

    /**
     * Delegated mode, as Kueue does while a preemption is in flight: a workload that would need quota a
     * preemptor of this cycle waits for is skipped (stays pending, its team looked at again next cycle);
     * one that fits beside what the preemptors need goes on, if it goes where it would go after them.
     * In-process mode admits those preemptors first; a placement that their victims' nodes or theirs
     * would change waits for them too, so that both modes decide alike.
     */
    private boolean fitsBesideHeld(Candidate head, Cycle c) {
        WorkloadEntry e = head.entry;
        QuotaCheck check;
        try (var undo = ledger().simulateAddition(requestsByTeam(c.held))) {
            check = ledger().check(e.team(), e.requests(), true);
        }
        List<String> held = c.held.stream().map(WorkloadEntry::id).toList();
        if (check.fits()) {
            if (head.plan != null || placedAlikeAfterHeld(e, head.placement, c)) return true;
            e.stayPending(PendingReason.InsufficientCapacity, "where it would run depends on the preemptions "
                    + held + (held.size() == 1 ? " waits" : " wait") + " for; it is looked at again once they are done");
        } else {
            e.stayPending(check.reason(), check.message() + " (counting what " + held + (held.size() == 1 ? " waits" : " wait")
                    + " for by preemption)");
        }
        c.touched.add(e);
        dirtyTeams.add(head.queue.team);
        return false;
    }

    /**
     * Whether the workload would be placed at {@code now} also once the held preemptors' victims were gone and the
     * preemptors placed (a what-if on the live topology, undone before it returns).
     */
    private boolean placedAlikeAfterHeld(WorkloadEntry e, Placement now, Cycle c) {
        List<RunningWorkload> victims = new ArrayList<>();
        for (PreemptionPlan plan : c.heldPlans.values()) {
            for (Victim v : plan.victims()) {
                WorkloadEntry victim = workloads.get(v.workloadId());
                if (victim != null && victim.state() == WorkloadState.Admitted) victims.add(victim.running());
            }
        }
        try (var gone = cache.simulateRemoval(victims)) {
            List<WorkloadEntry> placed = new ArrayList<>();
            List<Placement> where = new ArrayList<>();
            try {
                for (WorkloadEntry h : c.heldPlans.keySet()) {
                    if (topology().place(h.workload().podSets()) instanceof PlacementResult.Placed hp) {
                        topology().reserve(h.workload().podSets(), hp.placement());
                        placed.add(h);
                        where.add(hp.placement());
                    }
                }
                return topology().place(e.workload().podSets()) instanceof PlacementResult.Placed after
                        && after.placement().equals(now);
            } finally {
                for (int i = placed.size() - 1; i >= 0; i--) topology().release(placed.get(i).workload().podSets(), where.get(i));
            }
        }
    }

    /** What the entries request, summed by team and instance type. */
    private static Map<String, Map<String, Resources>> requestsByTeam(Collection<WorkloadEntry> entries) {
        Map<String, Map<String, Resources>> out = new LinkedHashMap<>();
        for (WorkloadEntry e : entries) {
            Map<String, Resources> team = out.computeIfAbsent(e.team(), t -> new TreeMap<>());
            e.requests().forEach((type, r) -> team.merge(type, r, Resources::plus));
        }
        return out;
    }

    /**
     * The pending workloads whose reason or message changed in this cycle, in their queues' order (team by team), an
     * order of their own rather than the order the cycle happened to touch them in: a parked workload whose reason and
     * message are what was last reported is not kept among the touched ones ({@link #park}), and a walk re-parks the
     * same workloads in every round.
     */
    private void explainPending(Cycle c) {
        for (TeamQueue.ShapeQueue shape : c.parkedShapes) TeamQueue.giveVerdict(shape, c.touched::add);
        List<WorkloadEntry> changed = new ArrayList<>();
        for (WorkloadEntry e : c.touched) {
            if (e.isPending() && e.reportPending()) changed.add(e);
        }
        changed.sort(Comparator.comparing(WorkloadEntry::team).thenComparing(TeamQueue.QUEUE_ORDER));
        for (WorkloadEntry e : changed) {
            c.decisions.add(new Decision.StayPending(e.id(), e.team(), e.pendingReason(), e.message()));
        }
    }

    private void admit(WorkloadEntry e, Placement placement, Cycle c) {
        Map<String, Resources> borrowed = ledger().borrowedBy(e.team(), e.requests());
        teams.get(e.team()).remove(e);
        e.admit(placement, borrowed, clock.instant(), ++admissionSeq);
        cache.reserve(e);
        if (waitForPodsReady != null) {
            timers.add(new Timer(e.admittedAt().plus(waitForPodsReady.timeout()), ++timerSeq, e, false, e.admissionSeq()));
        }
        // Every admission gives the set-aside workloads another look (docs/semantics.md, "Team heads": they are
        // looked at again after the next release): the team may now borrow,
        // which lets a lender reclaim and makes its workloads fair-sharing candidates, and a new
        // lower-priority workload is something a parked one of its team may preempt.
        released = true;
        c.held.remove(e);
        c.heldPlans.remove(e);
        c.touched.remove(e);
        c.progress = true;
        c.decisions.add(new Decision.Admit(e.id(), e.team(), placement, borrowed, e.admittedAt()));
    }

    private TeamQueue newQueue(String team) {
        return new TeamQueue(team, reuseParkedVerdicts);
    }

    /** The team's first workload, in queue order, that can be admitted directly or by preemption; the others are parked. */
    private Candidate findCandidate(TeamQueue q, Cycle c) {
        WorkloadEntry waiting = q.waitingPreemptor;
        if (waiting != null) {
            q.waitingPreemptor = null;
            // Delegated mode: the preemptor whose evictions were asked for is its team's head
            // while it can still be admitted, ahead of workloads before it in the queue that were
            // set aside when it was chosen. In-process mode admits it in the same step as its
            // evictions, so nothing can take the room it freed; neither may anything here.
            if (waiting.nominated() && waiting.isPending() && q.isActive(waiting)) {
                Candidate cand = evaluate(q, waiting, c);
                if (cand != null) {
                    q.waitingPreemptor = waiting;
                    return cand;
                }
            }
        }
        if (reuseParkedVerdicts) return findCandidateByShape(q, c);
        for (WorkloadEntry e = q.firstActive(); e != null; e = q.firstActive()) {
            Candidate cand = evaluate(q, e, c);
            if (cand != null) return cand;
        }
        return null;
    }

    /**
     * The same walk with verdicts reused per shape: the first active workload of each shape in queue order, a blocked one
     * parking its whole shape at once (a verdict depends on the shape alone, {@link Shape}), up to the workload chosen.
     * The same decisions as the walk of every workload (checked against it in {@code ParkedVerdictReuseTest}), in
     * O(shapes) rather than O(workloads) per walk: a cycle walks every team again after each release.
     */
    private Candidate findCandidateByShape(TeamQueue q, Cycle c) {
        List<TeamQueue.ShapeQueue> parkedWhole = new ArrayList<>();
        TeamQueue.Heads heads = q.activeHeads();
        for (WorkloadEntry e = heads.next(); e != null; e = heads.next()) {
            Evaluation verdict = verdictOf(e);
            if (verdict instanceof Evaluation.Blocked blocked) {
                TeamQueue.ShapeQueue whole = q.parkShape(e, blocked);
                if (whole != null) parkedWhole.add(whole);
                else parkAlone(e, blocked, c);
                continue;
            }
            c.parked(q.limitParks(parkedWhole, e, c.touched::add));
            return candidate(q, e, verdict, c);
        }
        c.parked(parkedWhole);
        return null;
    }

    /** Can this workload be admitted now (directly or by preemption)? If not, it is parked with its reason. */
    private Candidate evaluate(TeamQueue q, WorkloadEntry e, Cycle c) {
        Evaluation verdict = verdictOf(e);
        if (verdict instanceof Evaluation.Blocked blocked) {
            park(q, e, blocked, c);
            return null;
        }
        return candidate(q, e, verdict, c);
    }

    /**
     * The workload's verdict in the current state: its shape's if one was taken on what is still the same state (or one
     * still short of quota, with new figures), else evaluated.
     */
    private Evaluation verdictOf(WorkloadEntry e) {
        Evaluation known = parkedVerdicts.get(e, cache, run.isStopped());
        if (known != null) return known;
        evaluations++;
        Evaluation result = Evaluation.of(cache, planner, e.workload(), e.requests(), victimsOf(e));
        if (result instanceof Evaluation.NeedsPreemption needs && run.isStopped()) {
            result = new Evaluation.Blocked(needs.reason(), needs.message() + " (preemption is paused until the next run of "
                    + "the scheduler: this run reached its bound of evictions)");
        }
        parkedVerdicts.put(e, result, cache, run.isStopped());
        return result;
    }

    /** How many workloads were evaluated (quota check, placement, preemption search), memo hits left out: what tests of the memo count. */
    long evaluations() {
        return evaluations;
    }

    /** How many workloads still short of quota took new figures from the quota check and its bound alone ({@link ParkedVerdicts#get}). */
    long rechecks() {
        return parkedVerdicts.rechecks();
    }

    /** Whom the workload may preempt: anyone the rules allow, or, evicted by a preemption in this run, only those admitted before it began. */
    private static Predicate<RunningWorkload> victimsOf(WorkloadEntry e) {
        if (!e.victimsLimited()) return PreemptionPlanner.ANY_VICTIM;
        long upTo = e.victimsAdmittedUpTo();
        return r -> r.admissionSeq() <= upTo;
    }

    /** A workload that can be admitted now, directly ({@code Fits}) or by preemption ({@code NeedsPreemption}). */
    private Candidate candidate(TeamQueue q, WorkloadEntry e, Evaluation admissible, Cycle c) {
        q.chosen(e, c.touched::add); // first the verdict its shape was parked with earlier in this cycle, if it has not
        if (admissible instanceof Evaluation.Fits fits) return candidate(q, e, fits.placement(), null);
        Evaluation.NeedsPreemption needs = (Evaluation.NeedsPreemption) admissible;
        e.blockedBy(needs.message());
        return candidate(q, e, null, needs.plan());
    }

    private void park(TeamQueue q, WorkloadEntry e, Evaluation.Blocked why, Cycle c) {
        q.park(e);
        parkAlone(e, why, c);
    }

    /** The workload (parked in its queue) takes its verdict. */
    private void parkAlone(WorkloadEntry e, Evaluation.Blocked why, Cycle c) {
        // Only a change is reported (explainPending): on a deep queue, re-walked after every release, most workloads
        // are parked again as they were, and keeping each among the touched cost as much as the walk itself.
        if (e.parkWith(why)) c.touched.add(e);
    }

    private Candidate candidate(TeamQueue q, WorkloadEntry e, Placement placement, PreemptionPlan plan) {
        boolean withinNominal = ledger().withinNominal(e.team(), e.requests());
        Share shareAfter = config().fairShare() ? ledger().shareWith(e.team(), e.requests()) : Share.ZERO;
        return new Candidate(q, e, placement, plan, cache.version(), e.nominated(), withinNominal, shareAfter);
    }

    /** Heads that fit in their nominal first; then lowest share (FairShare); nominated first of all. */
    private static final Comparator<Candidate> CANDIDATE_ORDER = (a, b) -> {
        if (a.nominated != b.nominated) return a.nominated ? -1 : 1;
        if (a.withinNominal != b.withinNominal) return a.withinNominal ? -1 : 1;
        int c = a.shareAfter.compareTo(b.shareAfter);
        if (c != 0) return c;
        Workload x = a.entry.workload();
        Workload y = b.entry.workload();
        c = Integer.compare(y.priority(), x.priority());
        if (c != 0) return c;
        c = x.submittedAt().compareTo(y.submittedAt());
        return c != 0 ? c : x.team().compareTo(y.team());
    };

    private record Candidate(TeamQueue queue, WorkloadEntry entry, Placement placement, PreemptionPlan plan, long version,
                             boolean nominated, boolean withinNominal, Share shareAfter) {
    }

    // ---------------------------------------------------------------- dry run

    /**
     * Would this submission be admitted now if it were at the head of its queue: where, borrowing
     * what, after preempting whom. The same evaluation as the cycle's; changes nothing (the
     * preemption what-if is undone before it returns).
     */
    public DryRunResult dryRun(WorkloadSubmitted submission) {
        WorkloadValidation.Result r = WorkloadValidation.validate(submission, validationContext(), clock.instant());
        if (r instanceof WorkloadValidation.Invalid invalid) {
            return new DryRunResult(submission.workloadId(), submission.team(), DryRunResult.Verdict.Rejected,
                    invalid.reason().name(), invalid.message(), null, Map.of(), List.of());
        }
        Workload w = ((WorkloadValidation.Valid) r).workload();
        return DryRun.of(cache, planner, w, id -> workloads.get(id).running());
    }

    // ---------------------------------------------------------------- queries

    /** A workload's state, if the id is known. */
    public Optional<WorkloadView> workload(String workloadId) {
        WorkloadEntry e = workloads.get(workloadId);
        return e == null ? Optional.empty() : Optional.of(e.view());
    }

    /**
     * A pending workload's reason and message as they are now, and what its figures follow when they may change without
     * a decision (null: a change is reported as a StayPending decision); empty when it is unknown or not pending.
     */
    public Optional<PendingFigures> pendingFigures(String workloadId) {
        WorkloadEntry e = workloads.get(workloadId);
        if (e == null || !e.isPending()) return Optional.empty();
        return Optional.of(new PendingFigures(e.pendingReason(), e.message(), e.figuresSource()));
    }

    /** {@link #pendingFigures}: the reason, the message, and what the figures follow (or null). */
    public record PendingFigures(PendingReason reason, String message, FiguresSource source) {
    }

    /** Every known workload, by id. */
    public List<WorkloadView> workloads() {
        return workloads.values().stream().map(WorkloadEntry::view).sorted(Comparator.comparing(WorkloadView::workloadId)).toList();
    }

    /** A team's pending workloads in queue order (position 0 is the head). */
    public List<WorkloadView> queue(String team) {
        TeamQueue q = teams.get(team);
        if (q == null) return List.of();
        return q.inOrder().stream().map(WorkloadEntry::view).toList();
    }

    /** A queued workload as validated, or null when the id is not pending. */
    public Workload pendingWorkload(String workloadId) {
        WorkloadEntry e = workloads.get(workloadId);
        return e == null || !e.isPending() ? null : e.workload();
    }

    /** The quota ledger (read it; do not change it). */
    public QuotaLedger ledger() {
        return cache.ledger();
    }

    /** The nodes with what admitted workloads hold on them (read it; do not change it). */
    public Topology topology() {
        return cache.topology();
    }

    public SchedulerConfig config() {
        return cache.config();
    }

    public Mode mode() {
        return mode;
    }

    /** What preemption planning works on: this scheduler's live state (planning's what-ifs undo themselves). */
    public ClusterView clusterView() {
        return cache;
    }

    /** Admitted workloads, by team. */
    public Collection<RunningWorkload> running(String team) {
        return cache.running(team);
    }
}
