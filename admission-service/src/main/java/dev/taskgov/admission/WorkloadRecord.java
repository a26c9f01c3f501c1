package dev.taskgov.admission;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Everything admission knows about one workload: the value of the compacted changelog topic
 * ({@code taskgov.admission.changelog}, key = workload id). A decider that takes over restores its
 * whole state from these records.
 *
 * @param workloadId    the id (the key)
 * @param team          owning team
 * @param spec          the submission as received (kept whole so the workload can be queued again)
 * @param priorityClass resolved priority class name, null when none was named
 * @param priority      resolved priority weight
 * @param state         Pending, Admitted, Finished or Rejected
 * @param reason        why it is in that state (PendingReason / RejectReason / preemption reason name; NodeReplaced
 *                      for an admitted workload moved off a failed node); null when none
 * @param message       for people, with numbers
 * @param submittedAt   queue order among equal priorities (kept across evictions)
 * @param admittedAt    when the current admission happened; for a workload that finished while admitted, when its
 *                      last admission happened (what it ran with stays visible); null otherwise
 * @param admissionSeq  order of the current admission among all admissions (victims: most recent first); 0 unless Admitted
 * @param placement     the current placement, or the last one of a workload that finished while admitted; null otherwise
 * @param borrowed      what that admission borrows per instance type; null when there is no placement
 * @param history       the state changes, oldest first; consecutive ones with the same state and reason aggregated
 * @param version       increases with every change; event ids are {@code <workloadId>:<version>}
 * @param retries       how many times it was queued again after a failure ({@code taskgov.dev/max-retry}); 0 for a
 *                      record written before retries existed
 * @param queuedAt      its place in its queue when it differs from {@code submittedAt}: the time of its last failure
 *                      while it retries (Kueue's requeuing timestamp {@code Eviction}); null otherwise
 * @param podsReady     gang admission: every pod of its current admission was reported ready (false otherwise, and
 *                      for a record written before gang admission existed)
 * @param readinessRequeues gang admission: how many times it was requeued after its pods missed the readiness timeout
 * @param backoffUntil  gang admission: the end of the backoff it waits out (Pending, reason Backoff); null otherwise
 */
public record WorkloadRecord(String workloadId, String team, WorkloadSubmitted spec, String priorityClass, int priority,
                             WorkloadState state,
                             String reason, String message, Instant submittedAt, Instant admittedAt, long admissionSeq,
                             List<AdmittedPodSet> placement, Map<String, ResourceAmounts> borrowed,
                             List<Condition> history, long version, int retries, Instant queuedAt, boolean podsReady,
                             int readinessRequeues, Instant backoffUntil) {

    /**
     * One entry of the history: a state with its reason, like a Kubernetes event. Consecutive changes with the
     * same state and reason (a pending workload whose numbers move) are one entry, as Kubernetes aggregates
     * repeated events: {@code count} times from {@code firstTime} to {@code time}, with the latest message.
     *
     * @param time      the latest occurrence
     * @param firstTime the first occurrence (= time when count is 1; filled in for records written before it existed)
     * @param count     how many consecutive changes this entry stands for (at least 1)
     */
    public record Condition(Instant time, WorkloadState state, String reason, String message, int count, Instant firstTime) {
        public Condition {
            if (count < 1) count = 1;
            if (firstTime == null) firstTime = time;
        }

        public Condition(Instant time, WorkloadState state, String reason, String message) {
            this(time, state, reason, message, 1, time);
        }

        /** Whether a change to (state, reason) repeats this entry. */
        boolean repeatedBy(WorkloadState s, String r) {
            return s == state && java.util.Objects.equals(r, reason);
        }

        /** This entry once more, at {@code now}, with the latest message. */
        Condition again(Instant now, String newMessage) {
            return new Condition(now, state, reason, newMessage, count + 1, firstTime);
        }
    }

    public WorkloadRecord {
        history = history == null ? List.of() : List.copyOf(history);
    }

    /** A new record in state {@code state}; the history starts with it. */
    public static WorkloadRecord first(WorkloadSubmitted spec, String team, String priorityClass, int priority,
                                       Instant submittedAt, WorkloadState state, String reason, String message, Instant now) {
        return new WorkloadRecord(spec.workloadId(), team, spec, priorityClass, priority, state, reason, message, submittedAt, null, 0,
                null, null, List.of(new Condition(now, state, reason, message)), 1, 0, null, false, 0, null);
    }

    /**
     * The next version in another state, with another reason or message. The history grows by one entry,
     * unless the last entry has the same state and reason: then that entry counts once more (latest message).
     */
    public WorkloadRecord moveTo(WorkloadState newState, String newReason, String newMessage, Instant now) {
        List<Condition> h = new ArrayList<>(history);
        Condition last = h.isEmpty() ? null : h.get(h.size() - 1);
        if (last != null && last.repeatedBy(newState, newReason)) h.set(h.size() - 1, last.again(now, newMessage));
        else h.add(new Condition(now, newState, newReason, newMessage));
        boolean admitted = newState == WorkloadState.Admitted;
        // A workload that ends while admitted keeps what it ran with; an evicted one holds nothing any more.
        boolean keepsAdmission = admitted || (newState == WorkloadState.Finished && state == WorkloadState.Admitted);
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, newState, newReason, newMessage, submittedAt,
                keepsAdmission ? admittedAt : null, admitted ? admissionSeq : 0, keepsAdmission ? placement : null,
                keepsAdmission ? borrowed : null, h, version + 1, retries, queuedAt, admitted && podsReady, readinessRequeues,
                newState == WorkloadState.Pending && BACKOFF.equals(newReason) ? backoffUntil : null);
    }

    /** The pending reason of a workload waiting out a backoff (PendingReason.Backoff). */
    private static final String BACKOFF = dev.taskgov.core.model.PendingReason.Backoff.name();

    /** The next version, admitted with this placement. */
    public WorkloadRecord admit(Instant now, long seq, List<AdmittedPodSet> podSets, Map<String, ResourceAmounts> borrowedNow,
                                String newMessage) {
        List<Condition> h = new ArrayList<>(history);
        h.add(new Condition(now, WorkloadState.Admitted, null, newMessage));
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, WorkloadState.Admitted, null, newMessage, submittedAt,
                now, seq, podSets, borrowedNow, h, version + 1, retries, queuedAt, false, readinessRequeues, null);
    }

    /**
     * The next version, still admitted (same admission time and order, same borrowing) on a new
     * placement; the history says why ({@code reason}, e.g. NodeReplaced, and which node).
     */
    public WorkloadRecord replacePlacement(Instant now, List<AdmittedPodSet> podSets, String newReason, String newMessage) {
        List<Condition> h = new ArrayList<>(history);
        h.add(new Condition(now, WorkloadState.Admitted, newReason, newMessage));
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, WorkloadState.Admitted, newReason, newMessage,
                submittedAt, admittedAt, admissionSeq, podSets, borrowed, h, version + 1, retries, queuedAt, podsReady,
                readinessRequeues, backoffUntil);
    }

    /**
     * The next version after a failure with retries left: pending again ({@code reason} RetryAfterFailure), one
     * retry more, queued as of {@code failedAt}.
     */
    public WorkloadRecord retryAfterFailure(String newReason, String newMessage, Instant failedAt) {
        WorkloadRecord pending = moveTo(WorkloadState.Pending, newReason, newMessage, failedAt);
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, pending.state(), newReason, newMessage, submittedAt,
                null, 0, null, null, pending.history(), pending.version(), retries + 1, failedAt, false, readinessRequeues, null);
    }

    /**
     * The same version with gang admission's state as the scheduler has it now ({@code podsReady} counts only while it
     * is admitted, {@code backoffUntil} only while it waits out a backoff); not a new version by itself.
     */
    public WorkloadRecord withReadiness(boolean ready, int requeues, Instant until) {
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, state, reason, message, submittedAt,
                admittedAt, admissionSeq, placement, borrowed, history, version, retries, queuedAt,
                ready && state == WorkloadState.Admitted, requeues, state == WorkloadState.Pending ? until : null);
    }

    /** Its place in its queue: the time of its last failure while it retries, else its submission time. */
    public Instant queueTime() {
        return queuedAt != null ? queuedAt : submittedAt;
    }

    /** When it entered its current state (and reason): the start of the last history entry. */
    public Instant since() {
        return history.isEmpty() ? submittedAt : history.get(history.size() - 1).firstTime();
    }

    /** The same version with the message a read should show now (figures held back from the topics, not a new version). */
    public WorkloadRecord showing(String currentMessage) {
        return new WorkloadRecord(workloadId, team, spec, priorityClass, priority, state, reason, currentMessage, submittedAt,
                admittedAt, admissionSeq, placement, borrowed, history, version, retries, queuedAt, podsReady, readinessRequeues,
                backoffUntil);
    }

    /** When this version was written: its last condition's time. */
    public Instant writtenAt() {
        return history.isEmpty() ? submittedAt : history.get(history.size() - 1).time();
    }

    /** Whether a new (state, reason, message) differs from the current one. */
    public boolean differs(WorkloadState s, String r, String m) {
        return s != state || !java.util.Objects.equals(r, reason) || !java.util.Objects.equals(m, message);
    }

    /** The workload's cluster: the one its submission named, or the only one when it named none. */
    public dev.taskgov.core.cluster.ClusterArn cluster() {
        return spec == null ? dev.taskgov.core.cluster.ClusterArn.UNNAMED : spec.cluster();
    }

    /** The CloudEvents id of this version's events. */
    public String eventId() {
        return workloadId + ":" + version;
    }
}
