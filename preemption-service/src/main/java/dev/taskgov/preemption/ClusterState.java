package dev.taskgov.preemption;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.view.ClusterInputsByCluster;
import dev.taskgov.core.events.QuotaChange;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.view.ClusterInputs;
import dev.taskgov.preemption.ChangelogRecords.PendingGrace;
import dev.taskgov.preemption.ChangelogRecords.Reservation;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Preemption's own picture of the governed clusters, built from the state topics (submitted, admitted,
 * finished, preempted, quota, topology) and its changelog (reservations, graces).
 *
 * <p>Records of different topics arrive in no particular order relative to each other, so a
 * workload's state is kept as counts, which do not depend on that order: it runs while it has
 * more admissions than evictions and failures and has not finished. A Failed finish while its submission's
 * {@code taskgov.dev/max-retry} leaves retries ends a run, as an eviction does (admission queues it again);
 * past them, or any other outcome, it is finished. An eviction this service has emitted but
 * not yet read back counts at once ({@link #recordEviction}), so two requests never pick the same
 * victim. Every workload belongs to one cluster (the one its admission, the preemption request or its
 * submission names), and a planning view holds one cluster only: its nodes, quotas, policy and running
 * workloads. Not thread-safe: the loop thread owns it.
 */
final class ClusterState {

    private static final Logger LOG = Logger.getLogger(ClusterState.class);

    /** How long a finished workload is kept after its end was read: beyond Kafka's default transaction timeout (60 s). */
    static final Duration ENDS_KEPT = Duration.ofMinutes(2);

    /** What is known of one workload id. */
    static final class Tracked {
        WorkloadSubmitted spec;
        /**
         * Submissions of this id by other teams than {@link #spec}'s, kept until an admission names the team the id
         * belongs to: a workload id is its first submitter's (admission refuses the others), but the topics of two
         * teams are read in no set order, so the first read here need not be the first admission took.
         */
        Map<String, WorkloadSubmitted> otherTeams;
        int admissions;
        int evictionsRead;
        int evictionsExpected;
        /** Failed finishes read; while they stay within the submission's retries, each ends one run only. */
        int failures;
        /** A Succeeded or Cancelled finish was read. */
        boolean ended;
        /** When its end was read, while it stands ({@link ClusterState#endsRead}); null while it is not finished. */
        Instant endReadAt;
        WorkloadAdmitted lastAdmission;
        long admissionSeq;
        /** The cluster as a decider recorded it (admission, request, reservation); null until one did. */
        ClusterArn cluster;

        /** The workload's cluster: as recorded, else as its submission names it, else the unnamed one. */
        ClusterArn cluster() {
            if (cluster != null) return cluster;
            if (spec != null && spec.clusterArn() != null && ClusterArn.isValid(spec.clusterArn())) return spec.cluster();
            return ClusterArn.UNNAMED;
        }

        /** Finished for good: ended, or failed more times than its submission allows retries (0 while it is not known). */
        boolean finished() {
            return ended || failures > (spec == null ? 0 : spec.maxRetry().orElse(0));
        }

        boolean running() {
            return !finished() && lastAdmission != null && admissions > Math.max(evictionsRead, evictionsExpected) + failures;
        }

        /** {@link #asRunning}'s last answer, and what it was converted from. */
        private RunningWorkload converted;
        private SchedulerConfig convertedFor;
        private WorkloadSubmitted convertedSpec;
        private WorkloadAdmitted convertedAdmission;

        /** The running workload as a plan reads it: converted once per submission, admission and config, not per plan. */
        RunningWorkload asRunning(SchedulerConfig config) {
            RunningWorkload known = converted;
            // every admission read is a record of its own, so a new admission (and its admissionSeq) is a new lastAdmission
            if (known == null || convertedFor != config || convertedSpec != spec || convertedAdmission != lastAdmission) {
                known = new RunningWorkload(toWorkload(config, spec), WorkloadAdmitted.placement(lastAdmission.podSets()), admissionSeq);
                converted = known;
                convertedFor = config;
                convertedSpec = spec;
                convertedAdmission = lastAdmission;
            }
            return known;
        }
    }

    /** Where a preemptor stands when its request is handled. */
    enum PreemptorState { UNKNOWN, PENDING, ADMITTED, FINISHED, ROOM_RESERVED, VICTIMS_IN_GRACE }

    private final ClusterInputsByCluster inputs = new ClusterInputsByCluster();
    /** Per cluster, its quotas parsed against its instance types; dropped when its records change. */
    private final Map<ClusterArn, Map<String, TeamQuota>> parsedQuotas = new HashMap<>();
    private final Map<String, Tracked> workloads = new HashMap<>();
    /** Admitted workloads whose submission was not read: see {@link #submissionsMissed}. */
    private final Set<String> unsubmitted = new HashSet<>();
    private boolean unsubmittedGrew;
    /**
     * The workloads of {@link #workloads} that run now, in the order they started running: what a planning view is built
     * from, so that its cost follows the running work and not every workload the topics ever named.
     */
    private final Map<String, Tracked> running = new LinkedHashMap<>();
    /** Finished workloads in the order their ends were read, each with the time it was read: see {@link #forgetEnded}. */
    private final ArrayDeque<EndRead> endsRead = new ArrayDeque<>();
    /** When the last catch-up that read every state topic to its end took those ends; null before the first. */
    private Instant caughtUpAt;
    private final Clock clock;
    private final Map<String, Reservation> reservations = new TreeMap<>();
    private final Map<String, PendingGrace> graces = new TreeMap<>();
    /** Changelog keys to delete at the next chance (reservations and graces that ended). */
    private final List<String> ended = new ArrayList<>();
    private long admissionOrder;
    private final Duration reservationTimeout;

    ClusterState(Duration reservationTimeout) {
        this(reservationTimeout, Clock.systemUTC());
    }

    /** @param clock when ends are read and catch-ups take their ends ({@link #forgetEnded}) */
    ClusterState(Duration reservationTimeout, Clock clock) {
        this.reservationTimeout = reservationTimeout;
        this.clock = clock;
    }

    // ------------------------------------------------------------------ inputs from the state topics

    void onSubmitted(WorkloadSubmitted s) {
        // The first submission of an id is the workload (admission ignores the same team's resubmissions, and refuses
        // another team's); which team's that is, an admission says.
        Tracked t = tracked(s.workloadId());
        if (t.spec == null) {
            t.spec = s;
            unsubmitted.remove(s.workloadId());
        } else if (t.lastAdmission == null && !java.util.Objects.equals(t.spec.team(), s.team())) {
            if (t.otherTeams == null) t.otherTeams = new HashMap<>();
            t.otherTeams.putIfAbsent(s.team(), s);
        }
        changed(s.workloadId(), t); // its retries decide whether a failure read earlier finished it
    }

    void onAdmitted(WorkloadAdmitted a) {
        Tracked t = tracked(a.workloadId());
        if (a.isNodeReplacement()) {
            // The same admission on a new placement (a node under it failed): not an admission.
            if (t.lastAdmission != null) t.lastAdmission = a;
            return;
        }
        if (t.otherTeams != null) {
            // the id is the admitted team's: its submission is the workload, the others' were refused
            if (t.spec != null && !java.util.Objects.equals(t.spec.team(), a.team()) && t.otherTeams.containsKey(a.team())) {
                t.spec = t.otherTeams.get(a.team());
            }
            t.otherTeams = null;
        }
        if (t.spec == null && unsubmitted.add(a.workloadId())) unsubmittedGrew = true;
        t.admissions++;
        t.lastAdmission = a;
        t.cluster = a.cluster();
        t.admissionSeq = ++admissionOrder;
        Reservation r = reservations.get(a.workloadId());
        if (r != null && t.admissions > r.admissionsBefore()) endReservation(a.workloadId());
        changed(a.workloadId(), t);
    }

    void onFinished(String workloadId, WorkloadFinished.Outcome outcome) {
        Tracked t = tracked(workloadId);
        if (outcome == WorkloadFinished.Outcome.Failed) t.failures++;
        else t.ended = true;
        // Either way it no longer runs or waits as before: a retry is a new wait, with a new request.
        if (reservations.containsKey(workloadId)) endReservation(workloadId);
        if (graces.containsKey(workloadId)) endGrace(workloadId);
        changed(workloadId, t);
    }

    void onPreempted(String workloadId) {
        Tracked t = tracked(workloadId);
        t.evictionsRead++;
        changed(workloadId, t);
    }

    /** A translated {@code taskgov.quota} record: a quota, its tombstone, or a scheduler config. */
    void onQuota(QuotaChange change) {
        ClusterInputs in = inputs.of(change.cluster());
        if (change instanceof QuotaChange.SchedulerConfigSet c) {
            in.setConfig(c.config());
            return;
        }
        if (change instanceof QuotaChange.QuotaSet q) in.putQuota(q.team(), q.request());
        else if (change instanceof QuotaChange.QuotaRemoved q) in.removeQuota(q.team());
        parsedQuotas.remove(change.cluster());
    }

    /** A translated {@code taskgov.topology} record: a node, its tombstone, or a cluster's declaration or its tombstone. */
    void onTopology(TopologyChange change) {
        if (change instanceof TopologyChange.Declared) {
            inputs.declare(change.cluster());
            return;
        }
        if (change instanceof TopologyChange.Undeclared) {
            inputs.undeclare(change.cluster());
            return;
        }
        if (change instanceof TopologyChange.NodeSet n) inputs.of(change.cluster()).putNode(n.node());
        else if (change instanceof TopologyChange.NodeRemoved n) inputs.of(change.cluster()).removeNode(n.name());
        parsedQuotas.remove(change.cluster());
    }

    /** A preemption request names its preemptor's cluster: recorded, so its reservation counts there. */
    void onRequest(String preemptorId, ClusterArn cluster) {
        tracked(preemptorId).cluster = cluster;
    }

    // ------------------------------------------------------------------ changelog

    /*
     * The changelog is restored after the state topics by a rebuild, between them by a warm standby (as the records
     * come): what is restored must not depend on that order. So a restored entry takes its key off the keys to
     * tombstone (an earlier entry under the key, ended by a state-topic record, must not take the live one with it;
     * pruneEnded at the settle ends it again if it is over), and a reservation names the cluster only of a workload
     * no admission has named (the admission is the authority, whichever was read first).
     */

    void restoreReservation(Reservation r) {
        reservations.put(r.preemptorWorkloadId(), r);
        ended.removeIf(r.key()::equals);
        Tracked t = tracked(r.preemptorWorkloadId());
        if (r.clusterArn() != null && t.lastAdmission == null) t.cluster = ClusterArn.of(r.clusterArn());
    }

    void restoreGrace(PendingGrace g) {
        graces.put(g.workloadId(), g);
        ended.removeIf(g.key()::equals);
    }

    void removeChangelogKey(String key) {
        ended.removeIf(key::equals); // deleted already
        if (key.startsWith(ChangelogRecords.RESERVATION)) reservations.remove(key.substring(ChangelogRecords.RESERVATION.length()));
        else if (key.startsWith(ChangelogRecords.GRACE)) graces.remove(key.substring(ChangelogRecords.GRACE.length()));
    }

    /** Drops restored reservations and graces that the state topics show are over. */
    void pruneEnded(Instant now) {
        for (Reservation r : List.copyOf(reservations.values())) {
            Tracked t = workloads.get(r.preemptorWorkloadId());
            if (t == null || t.finished() || t.admissions > r.admissionsBefore()
                    || r.reservedAt().plus(reservationTimeout).isBefore(now)) {
                endReservation(r.preemptorWorkloadId());
            }
        }
        for (PendingGrace g : List.copyOf(graces.values())) {
            Tracked t = workloads.get(g.workloadId());
            if (t == null || !t.running()) endGrace(g.workloadId());
        }
    }

    /** Changelog keys whose entries ended since the last call (to tombstone). */
    List<String> drainEnded() {
        List<String> out = List.copyOf(ended);
        ended.clear();
        return out;
    }

    private void endReservation(String preemptorId) {
        Reservation r = reservations.remove(preemptorId);
        if (r != null) ended.add(r.key());
    }

    private void endGrace(String workloadId) {
        PendingGrace g = graces.remove(workloadId);
        if (g != null) ended.add(g.key());
    }

    // ------------------------------------------------------------------ decisions recorded at once

    /**
     * This service published (in the current transaction) the eviction of a running workload: its own, or one
     * admission-service decided (a victim in its grace period may be one: its grace ends, to be tombstoned).
     */
    void recordEviction(String workloadId) {
        Tracked t = tracked(workloadId);
        t.evictionsExpected = Math.max(t.evictionsRead, t.evictionsExpected) + 1;
        if (graces.containsKey(workloadId)) endGrace(workloadId);
        changed(workloadId, t);
    }

    void reserve(Reservation r) {
        reservations.put(r.preemptorWorkloadId(), r);
        tracked(r.preemptorWorkloadId()).cluster = ClusterArn.ofNullable(r.clusterArn());
    }

    void startGrace(PendingGrace g) {
        graces.put(g.workloadId(), g);
    }

    /** The grace that ended (its victim is evicted now, or is gone). */
    void endGraceQuietly(String workloadId) {
        graces.remove(workloadId);
    }

    // ------------------------------------------------------------------ reads

    PreemptorState preemptorState(String id) {
        Tracked t = workloads.get(id);
        if (t == null || (t.spec == null && t.lastAdmission == null)) return PreemptorState.UNKNOWN;
        if (t.finished()) return PreemptorState.FINISHED;
        if (t.running()) return PreemptorState.ADMITTED;
        if (reservations.containsKey(id)) return PreemptorState.ROOM_RESERVED;
        if (victimsInGrace(id)) return PreemptorState.VICTIMS_IN_GRACE;
        return PreemptorState.PENDING;
    }

    /** Whether victims of this preemptor are in their grace period. */
    private boolean victimsInGrace(String preemptorId) {
        return graces.values().stream().anyMatch(g -> g.preemptorWorkloadId().equals(preemptorId));
    }

    boolean isRunning(String id) {
        Tracked t = workloads.get(id);
        return t != null && t.running();
    }

    int admissions(String id) {
        Tracked t = workloads.get(id);
        return t == null ? 0 : t.admissions;
    }

    WorkloadSubmitted spec(String id) {
        Tracked t = workloads.get(id);
        return t == null ? null : t.spec;
    }

    String team(String id) {
        Tracked t = workloads.get(id);
        return t == null || t.spec == null ? null : t.spec.team();
    }

    /** The workload's cluster (the unnamed one when nothing names it). */
    ClusterArn clusterOf(String id) {
        Tracked t = workloads.get(id);
        return t == null ? ClusterArn.UNNAMED : t.cluster();
    }

    /** Every cluster any record named, and the unnamed one (diagnostics). */
    java.util.SortedSet<ClusterArn> governedOrUnnamed() {
        java.util.SortedSet<ClusterArn> out = new java.util.TreeSet<>(inputs.all().keySet());
        out.add(ClusterArn.UNNAMED);
        return out;
    }

    /** The clusters the deployment governs, as the topology topic shows them. */
    java.util.SortedSet<ClusterArn> governed() {
        return inputs.governed();
    }

    /** The workload's priority class as submitted, by its cluster's classes (null when none or unknown). */
    String priorityClass(String id) {
        Tracked t = workloads.get(id);
        if (t == null || t.spec == null || t.spec.priorityClass() == null) return null;
        return inputs.of(t.cluster()).config().classOf(t.spec.priorityClass()).orElse(null);
    }

    Collection<PendingGrace> graces() {
        return List.copyOf(graces.values());
    }

    int reservationCount() {
        return reservations.size();
    }

    SchedulerConfig config(ClusterArn cluster) {
        return inputs.of(cluster).config();
    }

    /** Checks a submission against one cluster's view (teams, instance types, priority classes, nodes). */
    WorkloadValidation.Context validationContext(ClusterArn cluster) {
        return inputs.of(cluster).validationContext(quotas(cluster));
    }

    /**
     * The cluster as planning sees it: usage and node reservations of every running workload, of
     * the victims still in their grace period and of the room reserved for preemptors; as
     * candidates only running workloads that are not already chosen.
     */
    PlanningView planningView(ClusterArn cluster) {
        ClusterInputs in = inputs.of(cluster);
        // the same books admission's scheduler keeps: idle resource sharing and the cluster's capacity included
        QuotaLedger ledger = in.ledger(quotas(cluster).values());
        Topology topology = Topology.of(in.nodes());
        Map<String, List<RunningWorkload>> candidates = new TreeMap<>();
        for (Map.Entry<String, Tracked> e : running.entrySet()) {
            Tracked t = e.getValue();
            if (!t.cluster().equals(cluster)) continue;
            if (t.spec == null) {
                LOG.warnf("admitted workload %s has no submission on record; left out of planning", e.getKey());
                continue;
            }
            RunningWorkload r = t.asRunning(in.config());
            Workload w = r.workload();
            ledger.add(w.team(), w.requestsByInstanceType());
            topology.reserve(w.podSets(), r.placement());
            if (!graces.containsKey(w.id())) {
                candidates.computeIfAbsent(w.team(), k -> new ArrayList<>()).add(r);
            }
        }
        for (Reservation r : reservations.values()) {
            Tracked t = workloads.get(r.preemptorWorkloadId());
            if (t == null || t.spec == null || !t.cluster().equals(cluster)) continue;
            Workload w = toWorkload(in.config(), t.spec);
            ledger.add(w.team(), w.requestsByInstanceType());
            topology.reserve(w.podSets(), WorkloadAdmitted.placement(r.podSets()));
        }
        return new PlanningView(in.config(), ledger, candidates, topology);
    }

    /**
     * Whether a workload was admitted, since the last call, whose submission is still not read: read up to the same
     * end as its admission (which it precedes), its submission is on a topic not read yet, a team's topic created
     * since the topics were last looked for. Those already answered for do not ask again: a submission that is not on
     * any topic would otherwise have the topics listed before every plan.
     */
    boolean submissionsMissed() {
        boolean missed = unsubmittedGrew && !unsubmitted.isEmpty();
        unsubmittedGrew = false;
        return missed;
    }

    /** A {@link ClusterView} built for one planning. */
    record PlanningView(SchedulerConfig config, QuotaLedger ledger, Map<String, List<RunningWorkload>> candidates,
                        Topology topology) implements ClusterView {
        @Override
        public Collection<RunningWorkload> running(String team) {
            return candidates.getOrDefault(team, List.of());
        }

        RunningWorkload find(String id) {
            for (List<RunningWorkload> l : candidates.values()) {
                for (RunningWorkload r : l) if (r.id().equals(id)) return r;
            }
            return null;
        }
    }

    // ------------------------------------------------------------------ helpers

    private Tracked tracked(String id) {
        return workloads.computeIfAbsent(id, k -> new Tracked());
    }

    /** What was read of the workload changed: whether it runs, and whether it ended (its end then counts as read now). */
    private void changed(String id, Tracked t) {
        if (t.running()) running.putIfAbsent(id, t);
        else running.remove(id);
        if (!t.finished()) {
            t.endReadAt = null;
        } else if (t.endReadAt == null) {
            t.endReadAt = clock.instant();
            endsRead.addLast(new EndRead(id, t.endReadAt));
        }
    }

    /** A finished workload's end as it was read. */
    private record EndRead(String workloadId, Instant at) {
    }

    /**
     * A catch-up read every state topic up to the ends it took at {@code at}: each record committed before then is in
     * the view.
     */
    void caughtUp(Instant at) {
        caughtUpAt = at;
    }

    /**
     * Forgets the finished workloads whose ends were read at least {@link #ENDS_KEPT} before the last catch-up took its
     * ends, so that the view holds what runs and what may still run, not every workload the topics ever named. Any
     * record of such a workload is in the view by then: its admissions and evictions were committed before its end
     * was published, or at the latest by the end of an admission transaction open when the end was read, which Kafka
     * aborts after its transaction timeout (60 s by default) if it is not committed first. A workload whose end no
     * longer stands (a submission with retries read after its failure), or that a reservation or grace still names,
     * stays.
     */
    void forgetEnded() {
        if (caughtUpAt == null) return;
        Instant before = caughtUpAt.minus(ENDS_KEPT);
        while (!endsRead.isEmpty() && !endsRead.peekFirst().at().isAfter(before)) {
            EndRead first = endsRead.pollFirst();
            String id = first.workloadId();
            Tracked t = workloads.get(id);
            // an end that no longer stands, or was read again later (and is further back in the queue), waits
            if (t == null || !first.at().equals(t.endReadAt) || reservations.containsKey(id) || graces.containsKey(id)
                    || victimsInGrace(id)) continue;
            workloads.remove(id);
            unsubmitted.remove(id);
        }
    }

    /** How many workloads the view holds (running, waiting, or ended but not yet forgotten): for tests. */
    int workloadsHeld() {
        return workloads.size();
    }

    private Map<String, TeamQuota> quotas(ClusterArn cluster) {
        return parsedQuotas.computeIfAbsent(cluster, c -> inputs.of(c).quotas((team, e) ->
                LOG.infof("quota of %s in %s not usable yet: %s", team, c, e.getMessage())));
    }

    /** A running workload as the planner needs it (it was validated when it was submitted), by its cluster's classes. */
    Workload toWorkload(WorkloadSubmitted spec) {
        Tracked t = workloads.get(spec.workloadId());
        ClusterArn c = t == null ? ClusterArn.ofNullable(spec.clusterArn()) : t.cluster();
        return toWorkload(inputs.of(c).config(), spec);
    }

    private static Workload toWorkload(SchedulerConfig config, WorkloadSubmitted spec) {
        return spec.toWorkload(config, spec.submittedAt() == null ? Instant.EPOCH : spec.submittedAt());
    }

    /** Forgets everything (before a rebuild). */
    void clear() {
        inputs.clear();
        parsedQuotas.clear();
        workloads.clear();
        unsubmitted.clear();
        unsubmittedGrew = false;
        running.clear();
        endsRead.clear();
        caughtUpAt = null;
        reservations.clear();
        graces.clear();
        ended.clear();
        admissionOrder = 0;
    }
}
