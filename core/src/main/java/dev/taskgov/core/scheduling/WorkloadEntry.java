package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Amounts;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;

import java.time.Instant;
import java.util.Map;

/**
 * One workload the scheduler knows, with its state. The state changes only through the named
 * transitions below ({@link #queued}, {@link #admit}, {@link #stayPending}, {@link #evicted},
 * {@link #retryAfterFailure}, {@link #finish}, ...), each of which sets every field it concerns; the reason is typed
 * ({@link PendingReason} while pending, {@link RejectReason} when rejected). The scheduler's
 * queues and the cluster's books are kept by the scheduler; an entry only says where its workload is.
 */
final class WorkloadEntry {

    private Workload workload;
    private Shape shape;
    private final Map<String, Resources> requests;
    /**
     * Its team, and for a request of one instance type (nearly all) that type and amount, kept on the entry itself: a
     * walk of a deep queue checks the quota of its waiting workloads again after nearly every admission, and reading them
     * through the workload and its requests' map cost a memory wait per object on the way.
     */
    private final String team;
    private final String onlyType;
    private final Resources onlyAmount;
    private WorkloadState state;
    private PendingReason pendingReason;
    private RejectReason rejectReason;
    private String message;
    /** The pending reason and message last reported (StayPending), so that only changes are reported. */
    private PendingReason reportedReason;
    private String reportedMessage;
    /** The last reason given after a requeue's message, and the message made of both (not made again while both hold). */
    private String stillWaitingFor;
    private String stillWaitingMessage;
    /** Why it does not fit without preemption: kept for the message while it waits for its victims. */
    private String blockedMessage;
    /**
     * Why it was sent back to its queue while it waits to run again (Preempted: how it was evicted;
     * RetryAfterFailure: which retry): its pending reason stays this one and its message starts with it.
     */
    private PendingReason requeuedReason;
    private String requeuedMessage;
    /** How many times it was queued again after a failure ({@link #retryAfterFailure}). */
    private int retries;
    private Placement placement;
    private Map<String, Resources> borrowed = Map.of();
    private Instant admittedAt;
    private long admissionSeq;
    /** Chosen for preemption and waiting for (or just given) the room its victims free. */
    private boolean nominated;
    /** Gang admission: every pod of its current admission reported ready. */
    private boolean podsReady;
    /** Gang admission: how many times it was requeued after its pods missed the readiness timeout. */
    private int readinessRequeues;
    /** Gang admission: the end of the backoff it waits out (Pending, reason Backoff), else null. */
    private Instant backoffUntil;
    /** Queue bookkeeping, kept by {@link TeamQueue} alone: whether it is in its team's queue. */
    boolean inQueue;
    /** Queue bookkeeping, kept by {@link TeamQueue} alone: the epoch in which it was parked, -1 when active. */
    long parkedInEpoch = -1;
    /** Queue bookkeeping, kept by {@link TeamQueue} alone: when it last entered its queue (the queue's count of additions). */
    long queuedSeq;
    /** Queue bookkeeping, kept by {@link TeamQueue} alone: when it was last looked at on its own (the queue's count of looks). */
    long visitedAt;
    /**
     * Queue bookkeeping, kept by {@link TeamQueue} alone: the queue of its shape while it is in its team's queue (null
     * otherwise), so that a walk finds it without a look-up by shape in every look.
     */
    TeamQueue.ShapeQueue shapeQueue;
    /**
     * While settled in its shape's queue ({@link TeamQueue}): the verdict its shape's workloads carry, which may since
     * have taken new figures with the same reason; null otherwise. Its reason and message are brought up to date when
     * read ({@link #catchUp}), so that a change of figures alone is not given to every workload of a deep queue.
     */
    private SharedVerdict settledIn;
    /** The verdict of {@link #settledIn} its fields were last set from. */
    private Evaluation.Blocked taken;
    /** Its message changed through its shape's verdict since it was last reported (a read may have shown that). */
    private boolean changedUnreported;

    /**
     * The verdict every settled workload of a shape carries. A new verdict with the same reason (figures alone) is set
     * here once, not given to each workload; one with another reason is given to each (it must be reported).
     */
    static final class SharedVerdict implements FiguresSource {
        private Evaluation.Blocked verdict;
        /** Bumped whenever its settled workloads may show something else than before (new figures, or superseded). */
        private long version;

        SharedVerdict(Evaluation.Blocked verdict) {
            this.verdict = verdict;
        }

        Evaluation.Blocked verdict() {
            return verdict;
        }

        /** New figures (the same reason) for every settled workload. */
        void newFigures(Evaluation.Blocked v) {
            // what its workloads show: the reason and message (not how the verdict may be reused)
            if (v.reason() != verdict.reason() || !v.sameMessage(verdict)) version++;
            verdict = v;
        }

        /** Its workloads are given a verdict one by one from now on (a new reason), each reported. */
        void supersede() {
            version++;
        }

        @Override
        public long version() {
            return version;
        }
    }

    private WorkloadEntry(Workload workload, WorkloadState state) {
        this.workload = workload;
        this.shape = Shape.of(workload);
        this.requests = workload.requestsByInstanceType();
        this.team = workload.team();
        Map.Entry<String, Resources> only = requests.size() == 1 ? requests.entrySet().iterator().next() : null;
        this.onlyType = only == null ? null : only.getKey();
        this.onlyAmount = only == null ? null : only.getValue();
        this.state = state;
    }

    // ------------------------------------------------------------ how an entry comes to be

    /** Submitted and waiting for the next cycle. */
    static WorkloadEntry queued(Workload workload) {
        WorkloadEntry e = new WorkloadEntry(workload, WorkloadState.Pending);
        e.pendingReason = PendingReason.Queued;
        e.message = "waiting for the next scheduling cycle";
        return e;
    }

    /** Refused for good at submission. */
    static WorkloadEntry rejected(Workload placeholder, RejectReason reason, String message) {
        WorkloadEntry e = new WorkloadEntry(placeholder, WorkloadState.Rejected);
        e.rejectReason = reason;
        e.message = message;
        return e;
    }

    /** Admitted before (restored from a changelog), with what its admission recorded. */
    static WorkloadEntry restored(Workload workload, Placement placement, Map<String, Resources> borrowed, Instant admittedAt,
                                  long admissionSeq) {
        WorkloadEntry e = new WorkloadEntry(workload, WorkloadState.Admitted);
        e.message = "admitted";
        e.placement = placement;
        e.borrowed = Map.copyOf(borrowed);
        e.admittedAt = admittedAt;
        e.admissionSeq = admissionSeq;
        return e;
    }

    // ------------------------------------------------------------ transitions

    /** Pending -> Admitted at {@code placement}: whatever it waited for is forgotten. */
    void admit(Placement placement, Map<String, Resources> borrowed, Instant at, long admissionSeq) {
        unsettle();
        state = WorkloadState.Admitted;
        pendingReason = null;
        message = "admitted";
        reportedReason = null;
        reportedMessage = null;
        this.placement = placement;
        this.borrowed = borrowed;
        admittedAt = at;
        nominated = false;
        requeuedReason = null;
        requeuedMessage = null;
        this.admissionSeq = admissionSeq;
        podsReady = false;
    }

    /**
     * Stays pending for {@code reason}; a workload that was sent back to its queue keeps saying why
     * (reason Preempted or RetryAfterFailure, that message first).
     */
    void stayPending(PendingReason reason, String why) {
        unsettle();
        applyPending(reason, why);
    }

    private void applyPending(PendingReason reason, String why) {
        if (requeuedReason != null) {
            pendingReason = requeuedReason;
            // a deep queue is re-parked with the same verdict (one message instance per shape) round after round
            if (why != stillWaitingFor || message != stillWaitingMessage) {
                message = requeuedMessage + "; still waiting: " + why;
                stillWaitingFor = why;
                stillWaitingMessage = message;
            }
        } else {
            pendingReason = reason;
            message = why;
        }
    }

    /** Set aside as not admissible now (its nomination, if any, lapses). */
    void park(PendingReason reason, String why) {
        nominated = false;
        stayPending(reason, why);
    }

    /**
     * Parked with {@code verdict}; true when its reason or message now differs from the last reported, so a
     * StayPending decision is due (most re-parks of a deep queue change nothing and are not reported).
     */
    boolean parkWith(Evaluation.Blocked verdict) {
        park(verdict.reason(), verdict.message());
        return hasUnreportedChange();
    }

    /**
     * Settled in its shape's queue, carrying {@code shared}'s verdict (which it was just parked with): from now on its
     * reason and message follow that verdict's figures until it is unsettled.
     */
    void settleIn(SharedVerdict shared) {
        settledIn = shared;
        taken = shared.verdict();
    }

    /** What its figures follow while settled in its shape's queue (they may change unreported), else null. */
    FiguresSource figuresSource() {
        return settledIn;
    }

    /** No longer settled in its shape's queue: its fields are brought up to date and stop following the shape's verdict. */
    void unsettle() {
        catchUp();
        settledIn = null;
        taken = null;
        // whoever read the figures it took meanwhile (the service writes them lazily) may hold other ones than the last
        // reported: its next reason and message are reported whatever they are
        if (changedUnreported) reportedMessage = null;
        changedUnreported = false;
    }

    /** Takes the figures its shape's verdict got since it settled there (the same reason: only the message changes). */
    private void catchUp() {
        SharedVerdict s = settledIn;
        if (s != null && s.verdict() != taken) {
            taken = s.verdict();
            String before = message;
            applyPending(taken.reason(), taken.message());
            if (!message.equals(before)) changedUnreported = true;
        }
    }

    /** Fits only by preemption: {@code why} is what blocks it without. */
    void blockedBy(String why) {
        blockedMessage = why;
    }

    /**
     * Nominated: waits for {@code victims} evictions. Returns true the first time (the request is
     * to be sent then), false while it already waits.
     */
    boolean waitForPreemption(int victims) {
        unsettle();
        boolean first = !nominated;
        nominated = true;
        pendingReason = PendingReason.WaitingForPreemption;
        message = "waiting for " + Amounts.count(victims, "preemption", "preemptions") + ": " + blockedMessage;
        return first;
    }

    /** Admitted -> Pending (Preempted): it was evicted and waits again, at its original submission time. */
    void evicted(String how) {
        backToQueue(PendingReason.Preempted, how);
    }

    /**
     * Admitted -> Pending (RetryAfterFailure): it failed with retries left; it counts the retry and waits
     * again, queued as of {@code failedAt} (behind what waited while it ran, as Kueue requeues by its
     * {@code Eviction} timestamp). Call only while {@link #retriesLeft()}.
     */
    void retryAfterFailure(Instant failedAt) {
        retries++;
        workload = workload.withSubmittedAt(failedAt);
        backToQueue(PendingReason.RetryAfterFailure, "failed; retry " + retries + " of " + workload.maxRetries()
                + ", queued again as of " + failedAt);
    }

    /**
     * Put back with the retries it had used (a decider taking over): a pending one that retries says so
     * again, as {@link #retryAfterFailure} did.
     */
    void restoreRetries(int used) {
        unsettle();
        retries = used;
        if (used > 0 && state == WorkloadState.Pending) {
            requeuedReason = PendingReason.RetryAfterFailure;
            requeuedMessage = "failed; retry " + used + " of " + workload.maxRetries() + ", queued again as of " + workload.submittedAt();
            pendingReason = requeuedReason;
            message = requeuedMessage;
        }
    }

    /** Admitted -> Pending: it holds nothing and waits in its queue, saying why it was sent back. */
    private void backToQueue(PendingReason reason, String why) {
        unsettle();
        state = WorkloadState.Pending;
        pendingReason = reason;
        message = why;
        requeuedReason = reason;
        requeuedMessage = why;
        placement = null;
        borrowed = Map.of();
        admittedAt = null;
    }

    /** Admitted -> Finished: it ended and holds nothing. */
    void finish() {
        finish("finished");
    }

    /** Admitted -> Finished, saying how it ended ({@code how}). */
    void finish(String how) {
        unsettle();
        state = WorkloadState.Finished;
        pendingReason = null;
        message = how;
        placement = null;
        borrowed = Map.of();
    }

    /** Pending -> Finished: it ended before it was admitted. */
    void finishWhilePending() {
        unsettle();
        state = WorkloadState.Finished;
        pendingReason = null;
        message = "finished while pending; removed from its queue";
        backoffUntil = null;
    }

    /** Admitted: whoever runs it reported every pod ready (gang admission). */
    void podsReady() {
        podsReady = true;
    }

    /**
     * Admitted -> Pending (Backoff): its pods were not all ready in time; it holds nothing, counts the requeue and may
     * not be admitted before {@code until} (it stays out of its queue until then).
     */
    void backOff(String how, Instant until) {
        readinessRequeues++;
        backToQueue(PendingReason.Preempted, how);
        pendingReason = PendingReason.Backoff;
        message = how + "; backing off until " + until;
        backoffUntil = until;
    }

    /** Put back with the readiness requeues it had used (a decider taking over). */
    void restoreReadinessRequeues(int requeues) {
        readinessRequeues = Math.max(0, requeues);
    }

    /**
     * Pending -> Pending (Backoff), put back by a decider taking over: it waits out the backoff it was given (its
     * requeue counted already), out of its queue, and is then queued again as a workload evicted.
     */
    void restoreBackoff(Instant until) {
        unsettle();
        String how = "evicted (PodsReadyTimeout): not every pod was ready in time";
        requeuedReason = PendingReason.Preempted;
        requeuedMessage = how;
        pendingReason = PendingReason.Backoff;
        message = how + "; backing off until " + until;
        backoffUntil = until;
    }

    /** Pending (Backoff) -> Pending: the backoff is over; it waits in its queue again, saying how it was evicted. */
    void backoffEnded() {
        unsettle();
        backoffUntil = null;
        pendingReason = requeuedReason;
        message = requeuedMessage;
    }

    /** Admitted -> Rejected (RequeuingLimitExceeded): its pods missed the timeout again with no requeue left. */
    void rejectAfterRequeues(String why) {
        unsettle();
        state = WorkloadState.Rejected;
        rejectReason = RejectReason.RequeuingLimitExceeded;
        pendingReason = null;
        message = why;
        placement = null;
        borrowed = Map.of();
        admittedAt = null;
    }

    boolean podsReadyReported() {
        return podsReady;
    }

    int readinessRequeues() {
        return readinessRequeues;
    }

    Instant backoffUntil() {
        return backoffUntil;
    }

    /** Its priority class now weighs {@code priority}. */
    void reprioritize(int priority) {
        workload = workload.withPriority(priority);
        shape = Shape.of(workload).limitedTo(shape.victimsAdmittedUpTo());
    }

    /**
     * A preemption evicted it in the current run of the scheduler: until the run ends it may preempt only workloads
     * admitted up to {@code admissionSeq}, those admitted before the run began (docs/semantics.md, "Every run ends").
     * Its shape says so, so that it shares verdicts only with alike workloads under the same limit. Call while it is
     * out of its queue, or through {@link TeamQueue#reorder}.
     */
    void limitVictims(long admissionSeq) {
        shape = Shape.of(workload).limitedTo(admissionSeq);
    }

    /** The run that limited its victims ended: it may preempt whatever the rules allow again. */
    void liftVictimLimit() {
        shape = Shape.of(workload);
    }

    /** Whether a preemption evicted it in the current run ({@link #limitVictims}). */
    boolean victimsLimited() {
        return shape.victimsAdmittedUpTo() != Shape.ANY_VICTIM;
    }

    /** The highest admission sequence a workload it preempts may have ({@link Shape#ANY_VICTIM} when not limited). */
    long victimsAdmittedUpTo() {
        return shape.victimsAdmittedUpTo();
    }

    /** Admitted: its pods now run at {@code newPlacement} (some of them lost, or moved after a node failure). */
    void movePods(Placement newPlacement) {
        placement = newPlacement;
    }

    /** Whether its pending reason or message differs from the last reported ({@link #reportPending} would report it). */
    boolean hasUnreportedChange() {
        catchUp();
        return pendingReason != reportedReason || !message.equals(reportedMessage);
    }

    /**
     * Marks the current pending reason as reported; true when it differs from the one reported
     * before (a StayPending decision is due).
     */
    boolean reportPending() {
        if (!hasUnreportedChange()) return false;
        reportedReason = pendingReason;
        reportedMessage = message;
        changedUnreported = false;
        return true;
    }

    // ------------------------------------------------------------ reads

    Workload workload() {
        return workload;
    }

    String id() {
        return workload.id();
    }

    String team() {
        return team;
    }

    Shape shape() {
        return shape;
    }

    /** Takes an equal instance of its shape (its queue's), so that alike entries share one and compare by identity. */
    void shareShape(Shape equal) {
        assert equal.equals(shape) : "only an equal shape may be shared";
        shape = equal;
    }

    Map<String, Resources> requests() {
        return requests;
    }

    /** The one instance type it asks for, or null when it asks for several (or none): then {@link #requests}. */
    String onlyType() {
        return onlyType;
    }

    /** What it asks for of {@link #onlyType}, or null. */
    Resources onlyAmount() {
        return onlyAmount;
    }

    WorkloadState state() {
        return state;
    }

    boolean isPending() {
        return state == WorkloadState.Pending;
    }

    PendingReason pendingReason() {
        catchUp();
        return pendingReason;
    }

    String message() {
        catchUp();
        return message;
    }

    /** How many times it was queued again after a failure. */
    int retries() {
        return retries;
    }

    /** Whether a failure now would queue it again rather than end it. */
    boolean retriesLeft() {
        return retries < workload.maxRetries();
    }

    Placement placement() {
        return placement;
    }

    Map<String, Resources> borrowed() {
        return borrowed;
    }

    Instant admittedAt() {
        return admittedAt;
    }

    long admissionSeq() {
        return admissionSeq;
    }

    boolean nominated() {
        return nominated;
    }

    String blockedMessage() {
        return blockedMessage;
    }

    /** As the preemption planner sees it while admitted. */
    RunningWorkload running() {
        return new RunningWorkload(workload, placement, admissionSeq, requests);
    }

    WorkloadView view() {
        catchUp();
        String reason = pendingReason != null ? pendingReason.name() : rejectReason != null ? rejectReason.name() : null;
        return new WorkloadView(workload.id(), workload.team(), state, reason, message, workload.priority(),
                workload.submittedAt(), admittedAt, placement, borrowed, retries);
    }
}
