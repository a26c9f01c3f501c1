package dev.taskgov.admission;

import dev.taskgov.admission.AdmissionState.Governed;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.model.FinishedRetention;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.FiguresSource;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Outbox;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * How the decider writes its workload records: each version to the changelog (its state) and the status topic (what
 * clients read), in the transaction of the decision; figures alone held back for a while; ended workloads forgotten
 * when their retention elapses. A read replica writes nothing: its records are the decider's.
 *
 * <p>Figures alone are learnt lazily: the scheduler reports a new reason at once, but a workload settled in its parked
 * shape takes its shape's new figures without a decision (one per waiting workload and cycle made a deep queue's cycle
 * cost grow with its depth). So each pending workload is looked at again when its refresh has passed since its last
 * record ({@link #figuresDue}): its current figures come from the scheduler ({@link Scheduler#pendingFigures}) and
 * are written if they differ; if not, it waits, without being looked at, until what its figures follow changes
 * ({@link #quiet}), so that an idle decider does no work for the waiting workloads settled in their shapes (one not
 * settled, which may settle without a new message reported, is looked at again each refresh).
 */
final class WorkloadWrites {

    private static final Logger LOG = Logger.getLogger(WorkloadWrites.class);

    private final DeciderTopics topics;
    private final Clock clock;
    private final AdmissionObserver observer;
    private final AdmissionState state;
    private final HeldWorkloads workloads;
    /** Each pending workload to be looked at again ({@link #figuresDue}), and when. */
    private final Map<String, Instant> watched = new HashMap<>();
    /**
     * Pending workloads looked at whose figures had not changed, by what their figures follow and its version then: put
     * back among the due ones once it changes. Weak: a shape's source the scheduler dropped never changes again, and its
     * workloads either left or follow another source (reported, then watched again).
     */
    private final Map<FiguresSource, Quiet> quiet = new WeakHashMap<>();

    private static final class Quiet {
        final long version;
        final List<String> ids = new ArrayList<>();

        Quiet(long version) {
            this.version = version;
        }
    }
    /** How long a workload that ended is kept (described, listed) before it is forgotten. */
    private final FinishedRetention retention;
    /** How often a workload's figures alone may be written (taskgov.admission.status-refresh); zero: every change. */
    private Duration statusRefresh = AdmissionProcessor.DEFAULT_STATUS_REFRESH;
    /** When each pending workload's figures may be written (its last record's time plus the refresh), earliest first. */
    private final java.util.TreeSet<Expiry> figuresDue = new java.util.TreeSet<>();
    /**
     * How many records of figures alone may be written per second, over every workload of this state
     * (taskgov.admission.status-figures-per-second); zero or less: no bound. A waiting workload's figures change with
     * every admission around it, so each is due once per {@link #statusRefresh}: 10,000 writes a second at 100,000
     * waiting, which starved the decisions. Beyond the bound the due figures stay held (reads show them at once) and
     * are written earliest due first as the budget allows.
     */
    private int figuresPerSecond = DEFAULT_FIGURES_PER_SECOND;
    /** Records of figures alone that may still be written now (refilled with time, at most a second's worth). */
    private double figureBudget = DEFAULT_FIGURES_PER_SECOND;
    /** When {@link #figureBudget} was last refilled. */
    private Instant budgetAt;

    /** How soon a workload not settled in its shape is looked at again when every change is written at once (no refresh). */
    private static final Duration RECHECK_UNSETTLED = Duration.ofSeconds(1);

    /** The default of {@link #figuresPerSecond}. */
    static final int DEFAULT_FIGURES_PER_SECOND = 1000;

    /**
     * When each ended workload held is to be forgotten, earliest first (also the order in which they ended), so that a
     * sweep looks at the due ones only and the bound on how many are held forgets the earliest ended first. One entry
     * per ended workload held ({@link #expiryOf}), so that its size is how many are held, and every entry's workload
     * is held: an entry is made as its workload is put ({@link #expireLater}), dropped as it is removed
     * ({@link #forget}) and cleared with it ({@link #clear}).
     */
    private final java.util.TreeSet<Expiry> expiries = new java.util.TreeSet<>();
    private final Map<String, Expiry> expiryOf = new HashMap<>();

    /** When something is due for a workload (its retention's end, its held figures' write); by that time, then by id. */
    private record Expiry(Instant at, String workloadId) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry o) {
            int byTime = at.compareTo(o.at);
            return byTime != 0 ? byTime : workloadId.compareTo(o.workloadId);
        }
    }

    WorkloadWrites(DeciderTopics topics, Clock clock, AdmissionObserver observer, AdmissionState state,
                   FinishedRetention retention) {
        this.topics = topics;
        this.clock = clock;
        this.observer = observer;
        this.state = state;
        this.workloads = state.workloads;
        this.retention = retention;
    }

    /** Whether time alone made work due at {@code now}: an ended workload to forget, held figures to write. */
    boolean dueAt(Instant now) {
        return !expiries.isEmpty() && !expiries.first().at().isAfter(now)
                || !figuresDue.isEmpty() && !figuresDue.first().at().isAfter(now) && mayWriteFigures(now)
                || quietChanged();
    }

    /** Whether what some quiet workloads' figures follow changed since they were looked at. */
    private boolean quietChanged() {
        for (Map.Entry<FiguresSource, Quiet> q : quiet.entrySet()) {
            if (q.getKey().version() != q.getValue().version) return true;
        }
        return false;
    }

    /** Sets how many records of figures alone may be written per second (zero or less: no bound). */
    void figuresPerSecond(int perSecond) {
        this.figuresPerSecond = perSecond;
        this.figureBudget = Math.max(perSecond, 0);
        this.budgetAt = null;
    }

    /** Whether the budget allows a record of figures alone at {@code now} (refilled for the time since the last). */
    private boolean mayWriteFigures(Instant now) {
        if (figuresPerSecond <= 0) return true;
        if (budgetAt == null || now.isBefore(budgetAt)) {
            budgetAt = now;
        } else if (now.isAfter(budgetAt)) {
            double seconds = Duration.between(budgetAt, now).toNanos() / 1e9;
            figureBudget = Math.min(figuresPerSecond, figureBudget + seconds * figuresPerSecond);
            budgetAt = now;
        }
        return figureBudget >= 1;
    }

    /** Takes one record of figures alone from the budget (after {@link #mayWriteFigures} allowed it). */
    private void spendFigure() {
        if (figuresPerSecond > 0) figureBudget -= 1;
    }

    /** Drops what is queued (the state was dropped with it). */
    void clear() {
        expiries.clear();
        expiryOf.clear();
        figuresDue.clear();
        watched.clear();
        quiet.clear();
    }

    /**
     * A workload's new state, reason and message. A new state or reason is written at once; new figures alone (what a
     * pending workload lacks, with the same reason) at most once per {@link #statusRefresh} per workload: within it the
     * latest are kept by the scheduler and written when it has passed ({@link #writeDueFigures}),
     * while reads show them at once ({@link AdmissionReads#workload}). A waiting workload's figures change with every admission around it; written
     * each time they were most of the status topic.
     */
    void update(String id, WorkloadState state, String reason, String message, Outbox out) {
        WorkloadRecord rec = workloads.get(id);
        if (rec == null) return;
        if (!rec.differs(state, reason, message)) {
            // written already (a decider taking over reports each waiting workload again): its figures are followed
            if (rec.state() == WorkloadState.Pending) watch(id, rec.writtenAt().plus(statusRefresh));
            return;
        }
        Instant now = clock.instant();
        boolean figuresOnly = rec.state() == state && java.util.Objects.equals(rec.reason(), reason);
        if (figuresOnly && !statusRefresh.isZero()) {
            Instant due = rec.writtenAt().plus(statusRefresh);
            if (now.isBefore(due) || !mayWriteFigures(now)) {
                watch(id, due); // the scheduler keeps the figures: they are asked for when due
                return;
            }
            spendFigure();
        }
        persist(rec.moveTo(state, reason, message, now), out);
    }

    /** The workload is looked at again at {@code due}, unless it is already to be looked at (then at that time). */
    private void watch(String id, Instant due) {
        if (watched.putIfAbsent(id, due) == null) figuresDue.add(new Expiry(due, id));
    }

    private void unwatch(String id) {
        Instant due = watched.remove(id);
        if (due != null) figuresDue.remove(new Expiry(due, id));
    }

    /** Sets how often a workload's figures alone may be written (zero: every change at once). */
    void statusRefresh(Duration refresh) {
        this.statusRefresh = refresh == null || refresh.isNegative() ? Duration.ZERO : refresh;
    }

    /**
     * Writes the current figures of the pending workloads whose refresh has passed, earliest due first, each as its
     * workload's next version, as many as the budget allows; the rest wait for a later batch. Those whose figures did
     * not change wait, quiet, until what they follow changes; those that follow nothing have any change reported.
     */
    void writeDueFigures(Outbox out) {
        Instant now = clock.instant();
        wakeQuiet(now);
        while (!figuresDue.isEmpty() && !figuresDue.first().at().isAfter(now) && (statusRefresh.isZero() || mayWriteFigures(now))) {
            Expiry due = figuresDue.pollFirst();
            watched.remove(due.workloadId());
            WorkloadRecord rec = workloads.get(due.workloadId());
            if (rec == null || rec.state() != WorkloadState.Pending) continue;
            Governed g = state.clusters.get(rec.cluster());
            Scheduler.PendingFigures current = g == null || g.scheduler == null ? null
                    : g.scheduler.pendingFigures(rec.workloadId()).orElse(null);
            // another state or reason is reported by a decision, and written with it; so is a queued one's first verdict
            if (current == null || !current.reason().name().equals(rec.reason()) || current.reason() == PendingReason.Queued) continue;
            if (current.message().equals(rec.message())) {
                if (current.source() != null) {
                    quiet.computeIfAbsent(current.source(), s -> new Quiet(s.version())).ids.add(rec.workloadId());
                } else {
                    // not settled in a parked shape now: it may settle there later without a new message reported
                    watch(rec.workloadId(), now.plus(statusRefresh.isZero() ? RECHECK_UNSETTLED : statusRefresh));
                }
                continue;
            }
            if (!statusRefresh.isZero()) spendFigure();
            persist(rec.moveTo(rec.state(), rec.reason(), current.message(), now), out);
        }
    }

    /**
     * The quiet workloads whose figures' source changed are due again now: each was looked at when its refresh had
     * passed and was not written since (a record since watches it from that record's time, which stands).
     */
    private void wakeQuiet(Instant now) {
        for (Iterator<Map.Entry<FiguresSource, Quiet>> it = quiet.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<FiguresSource, Quiet> q = it.next();
            if (q.getKey().version() == q.getValue().version) continue;
            it.remove();
            for (String id : q.getValue().ids) watch(id, now);
        }
    }

    /** The record goes to the changelog and its status to the status topic, in the current transaction. */
    void persist(WorkloadRecord rec, Outbox out) {
        workloads.put(rec.workloadId(), rec);
        watchFigures(rec);
        expireLater(rec);
        out.emit(topics.changelog(), rec.workloadId(), rec, AdmissionEvents.CHANGELOG, rec.eventId());
        out.emit(topics.status(), rec.workloadId(), status(rec), WorkloadStatus.TYPE, rec.eventId());
    }

    /**
     * {@link #persist} of a workload just queued, which this batch's decision cycle is likely to admit: both topics are
     * compacted, so its records are held ({@link Outbox#emitLatest}) and the admission's replace them in the same
     * transaction. A workload submitted and admitted in one batch has one Admitted record on each, not a Pending one
     * followed by it (its history still tells both); one that waits has its Pending records sent when the batch ends.
     */
    void persistQueued(WorkloadRecord rec, Outbox out) {
        workloads.put(rec.workloadId(), rec);
        unwatch(rec.workloadId()); // its first verdict is a new reason, reported by the cycle: watched from that record
        expireLater(rec);
        out.emitLatest(topics.changelog(), rec.workloadId(), rec, AdmissionEvents.CHANGELOG, rec.eventId());
        out.emitLatest(topics.status(), rec.workloadId(), status(rec), WorkloadStatus.TYPE, rec.eventId());
    }

    /** A new version: a pending workload's figures are looked at again once the refresh has passed since it. */
    private void watchFigures(WorkloadRecord rec) {
        unwatch(rec.workloadId());
        if (rec.state() == WorkloadState.Pending) watch(rec.workloadId(), rec.writtenAt().plus(statusRefresh));
    }

    private static WorkloadStatus status(WorkloadRecord rec) {
        return new WorkloadStatus(rec.workloadId(), rec.team(), rec.state(), rec.reason(), rec.message(),
                rec.history().get(rec.history().size() - 1).time(), rec.spec().clusterArn());
    }

    // ------------------------------------------------------------------ retention

    /**
     * Forgets every workload whose retention after its end elapsed by the decider's clock, then, while more ended
     * workloads are held than the retention's bound, the one that ended first ({@link #forget}). Runs on the loop
     * thread, in the transaction of the batch it ends (or of the settling), like any other decision.
     */
    void forgetExpired(Outbox out) {
        Instant now = clock.instant();
        while (!expiries.isEmpty() && (!expiries.first().at().isAfter(now) || retention.overBound(expiries.size()))) {
            forget(workloads.get(expiries.first().workloadId()), out);
        }
    }

    /**
     * The transition RetentionElapsed: a workload that ended (Finished or Rejected) longer than the retention ago is
     * forgotten. Tombstones for its changelog record and its status record go out in the current transaction (with
     * the batch's input offsets), so the changelog, the status topic and memory agree after a crash and rebuild; its
     * cluster's scheduler forgets the id too (one restored from the changelog never held it). Its id is unknown
     * afterwards: a submission with it is a new workload.
     */
    private void forget(WorkloadRecord rec, Outbox out) {
        // A submission refused for naming an ungoverned cluster has no scheduler to forget it.
        Governed g = state.clusters.get(rec.cluster());
        String how = g == null || g.scheduler == null ? "its cluster has no scheduler" : g.scheduler.forget(rec.workloadId()).message();
        workloads.remove(rec.workloadId());
        unwatch(rec.workloadId());
        Expiry expiry = expiryOf.remove(rec.workloadId());
        if (expiry != null) expiries.remove(expiry);
        out.tombstone(topics.changelog(), rec.workloadId());
        out.tombstone(topics.status(), rec.workloadId());
        LOG.debugf("workload %s (%s since %s) forgotten: %s", rec.workloadId(), rec.state(), rec.since(), how);
        out.afterCommit(() -> observer.forgotten(rec.cluster(), rec.team(), rec.state()));
    }

    /**
     * An ended workload is queued for the sweep at the end of its retention (in place of its earlier entry, if any); one
     * that has not ended has no entry.
     */
    void expireLater(WorkloadRecord rec) {
        Expiry before = expiryOf.remove(rec.workloadId());
        if (before != null) expiries.remove(before);
        retention.forgetAt(rec.state(), rec.since()).ifPresent(at -> {
            Expiry e = new Expiry(at, rec.workloadId());
            expiries.add(e);
            expiryOf.put(rec.workloadId(), e);
        });
    }
}
