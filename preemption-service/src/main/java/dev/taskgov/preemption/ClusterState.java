package dev.taskgov.preemption;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.view.ClusterInputs;
import dev.taskgov.preemption.ChangelogRecords.PendingGrace;
import dev.taskgov.preemption.ChangelogRecords.Reservation;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Preemption's own picture of one cluster, built from the state topics (submitted, admitted,
 * finished, preempted, quota, topology) and its changelog (reservations, graces).
 *
 * <p>Records of different topics arrive in no particular order relative to each other, so a
 * workload's state is kept as counts, which do not depend on that order: it runs while it has
 * more admissions than evictions and has not finished. An eviction this service has emitted but
 * not yet read back counts at once ({@link #recordEviction}), so two requests never pick the same
 * victim. Not thread-safe: the loop thread owns it.
 */
final class ClusterState {

    private static final Logger LOG = Logger.getLogger(ClusterState.class);

    /** What is known of one workload id. */
    static final class Tracked {
        WorkloadSubmitted spec;
        int admissions;
        int evictionsRead;
        int evictionsExpected;
        boolean finished;
        WorkloadAdmitted lastAdmission;
        long admissionSeq;

        boolean running() {
            return !finished && lastAdmission != null && admissions > Math.max(evictionsRead, evictionsExpected);
        }
    }

    /** Where a preemptor stands when its request is handled. */
    enum PreemptorState { UNKNOWN, PENDING, ADMITTED, FINISHED, ROOM_RESERVED, VICTIMS_IN_GRACE }

    private final ClusterInputs inputs = new ClusterInputs();
    private Map<String, TeamQuota> parsedQuotas;
    private final Map<String, Tracked> workloads = new HashMap<>();
    private final Map<String, Reservation> reservations = new TreeMap<>();
    private final Map<String, PendingGrace> graces = new TreeMap<>();
    /** Changelog keys to delete at the next chance (reservations and graces that ended). */
    private final List<String> ended = new ArrayList<>();
    private long admissionOrder;
    private final Duration reservationTimeout;

    ClusterState(Duration reservationTimeout) {
        this.reservationTimeout = reservationTimeout;
    }

    // ------------------------------------------------------------------ inputs from the state topics

    void onSubmitted(WorkloadSubmitted s) {
        // The first submission of an id is the workload (admission ignores resubmissions).
        Tracked t = tracked(s.workloadId());
        if (t.spec == null) t.spec = s;
    }

    void onAdmitted(WorkloadAdmitted a) {
        Tracked t = tracked(a.workloadId());
        if (a.isNodeReplacement()) {
            // The same admission on a new placement (a node under it failed): not an admission.
            if (t.lastAdmission != null) t.lastAdmission = a;
            return;
        }
        t.admissions++;
        t.lastAdmission = a;
        t.admissionSeq = ++admissionOrder;
        Reservation r = reservations.get(a.workloadId());
        if (r != null && t.admissions > r.admissionsBefore()) endReservation(a.workloadId());
    }

    void onFinished(String workloadId) {
        Tracked t = tracked(workloadId);
        t.finished = true;
        if (reservations.containsKey(workloadId)) endReservation(workloadId);
        if (graces.containsKey(workloadId)) endGrace(workloadId);
    }

    void onPreempted(String workloadId) {
        tracked(workloadId).evictionsRead++;
    }

    void onSchedulerConfig(SchedulerConfig c) {
        inputs.setConfig(c);
    }

    void onQuota(String team, JsonNode json) {
        if (json == null) inputs.removeQuota(team);
        else inputs.putQuota(team, json);
        parsedQuotas = null;
    }

    void onNode(String name, NodeRecord node) {
        if (node == null) inputs.removeNode(name);
        else inputs.putNode(node);
        parsedQuotas = null;
    }

    // ------------------------------------------------------------------ changelog

    void restoreReservation(Reservation r) {
        reservations.put(r.preemptorWorkloadId(), r);
    }

    void restoreGrace(PendingGrace g) {
        graces.put(g.workloadId(), g);
    }

    void removeChangelogKey(String key) {
        if (key.startsWith(ChangelogRecords.RESERVATION)) reservations.remove(key.substring(ChangelogRecords.RESERVATION.length()));
        else if (key.startsWith(ChangelogRecords.GRACE)) graces.remove(key.substring(ChangelogRecords.GRACE.length()));
    }

    /** Drops restored reservations and graces that the state topics show are over. */
    void pruneEnded(Instant now) {
        for (Reservation r : List.copyOf(reservations.values())) {
            Tracked t = workloads.get(r.preemptorWorkloadId());
            if (t == null || t.finished || t.admissions > r.admissionsBefore()
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

    /** This service published (in the current transaction) the eviction of a running workload. */
    void recordEviction(String workloadId) {
        Tracked t = tracked(workloadId);
        t.evictionsExpected = Math.max(t.evictionsRead, t.evictionsExpected) + 1;
        graces.remove(workloadId);
    }

    void reserve(Reservation r) {
        reservations.put(r.preemptorWorkloadId(), r);
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
        if (t.finished) return PreemptorState.FINISHED;
        if (t.running()) return PreemptorState.ADMITTED;
        if (reservations.containsKey(id)) return PreemptorState.ROOM_RESERVED;
        if (graces.values().stream().anyMatch(g -> g.preemptorWorkloadId().equals(id))) return PreemptorState.VICTIMS_IN_GRACE;
        return PreemptorState.PENDING;
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

    /** The workload's priority class as submitted (null when none or unknown). */
    String priorityClass(String id) {
        Tracked t = workloads.get(id);
        if (t == null || t.spec == null || t.spec.priorityClass() == null) return null;
        return inputs.config().classOf(t.spec.priorityClass()).orElse(null);
    }

    Collection<PendingGrace> graces() {
        return List.copyOf(graces.values());
    }

    int reservationCount() {
        return reservations.size();
    }

    SchedulerConfig config() {
        return inputs.config();
    }

    /** Checks a submission against this view (teams, instance types, priority classes, nodes). */
    WorkloadValidation.Context validationContext() {
        return inputs.validationContext(quotas());
    }

    /**
     * The cluster as planning sees it: usage and node reservations of every running workload, of
     * the victims still in their grace period and of the room reserved for preemptors; as
     * candidates only running workloads that are not already chosen.
     */
    PlanningView planningView() {
        // the same books admission's scheduler keeps: idle resource sharing and the cluster's capacity included
        QuotaLedger ledger = inputs.ledger(quotas().values());
        Topology topology = Topology.of(inputs.nodes());
        Map<String, List<RunningWorkload>> candidates = new TreeMap<>();
        for (Map.Entry<String, Tracked> e : workloads.entrySet()) {
            Tracked t = e.getValue();
            if (!t.running()) continue;
            if (t.spec == null) {
                LOG.warnf("admitted workload %s has no submission on record; left out of planning", e.getKey());
                continue;
            }
            Workload w = toWorkload(t.spec);
            Placement p = WorkloadAdmitted.placement(t.lastAdmission.podSets());
            ledger.add(w.team(), w.requestsByInstanceType());
            topology.reserve(w.podSets(), p);
            if (!graces.containsKey(w.id())) {
                candidates.computeIfAbsent(w.team(), k -> new ArrayList<>()).add(new RunningWorkload(w, p, t.admissionSeq));
            }
        }
        for (Reservation r : reservations.values()) {
            Tracked t = workloads.get(r.preemptorWorkloadId());
            if (t == null || t.spec == null) continue;
            Workload w = toWorkload(t.spec);
            ledger.add(w.team(), w.requestsByInstanceType());
            topology.reserve(w.podSets(), WorkloadAdmitted.placement(r.podSets()));
        }
        return new PlanningView(inputs.config(), ledger, candidates, topology);
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

    private Map<String, TeamQuota> quotas() {
        if (parsedQuotas == null) {
            parsedQuotas = inputs.quotas((team, e) -> LOG.infof("quota of %s not usable yet: %s", team, e.getMessage()));
        }
        return parsedQuotas;
    }

    /** A running workload as the planner needs it (it was validated when it was submitted). */
    Workload toWorkload(WorkloadSubmitted spec) {
        return spec.toWorkload(inputs.config(), spec.submittedAt() == null ? Instant.EPOCH : spec.submittedAt());
    }

    /** Forgets everything (before a rebuild). */
    void clear() {
        inputs.clear();
        parsedQuotas = null;
        workloads.clear();
        reservations.clear();
        graces.clear();
        ended.clear();
        admissionOrder = 0;
    }
}
