package dev.taskgov.preemption;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.Translation;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.QuotaRecordTranslator;
import dev.taskgov.core.events.QuotaChange;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.ClusterView;
import dev.taskgov.core.preemption.PlanResult;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.preemption.ChangelogRecords.PendingGrace;
import dev.taskgov.preemption.ChangelogRecords.Reservation;
import dev.taskgov.preemption.ClusterState.PlanningView;
import dev.taskgov.preemption.ClusterState.PreemptorState;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * The decider's state and the thin translation between Kafka records and the core
 * {@link PreemptionPlanner}: for each request, bring the view up to date with the state topics,
 * check that the request still needs anything, plan, and emit one eviction per victim (or start
 * its grace period), recording the evictions and the room made in the view at once.
 */
public final class PreemptionProcessor implements TransactionalLoop.Processor<PreemptionInput>, TransactionalLoop.Standby {

    private static final Logger LOG = Logger.getLogger(PreemptionProcessor.class);
    static final String PREEMPTION_PENDING = "PreemptionPending";

    /**
     * @param gracePeriods       per priority class name (as configured, without {@code -priority}); absent = none
     * @param reservationTimeout how long room made for a preemptor is held if its admission never shows up
     */
    public record Settings(DeciderTopics topics, Map<String, Duration> gracePeriods, Duration reservationTimeout) {
    }

    private final Settings settings;
    private final DeciderTopics topics;
    private final Clock clock;
    private final PreemptionObserver observer;
    private final ClusterState state;
    /** The partition (set of clusters) this processor decides for. */
    private final PartitionScope scope;
    private StateTopicsReader reader;
    /** Written under the lock; read without it by readiness checks. */
    private volatile Mode mode = Mode.DROPPED;

    /**
     * Where this processor is between taking its partition and losing it: its view being built (a rebuild, or a warm
     * standby following the state topics) with a reader open on the state topics, then deciding; dropped when revoked.
     */
    enum Mode {
        /** No view, no reader (before the first rebuild, after a revocation). */
        DROPPED,
        /** The view is being built from the state topics and the changelog; nothing is decided yet. */
        BUILDING,
        /** The view is built and settled: requests are planned, graces ended. */
        DECIDING;

        /** A rebuild or a standby's start: the view starts empty, its reader at the beginning of the state topics. */
        Mode building() {
            return BUILDING;
        }

        /** The view is complete: it decides. */
        Mode settled() {
            return DECIDING;
        }

        /** The partition is lost. */
        Mode revoked() {
            return DROPPED;
        }
    }

    /** A processor of every cluster (the requests topic has one partition). */
    public PreemptionProcessor(Settings settings, Clock clock, PreemptionObserver observer) {
        this(settings, clock, observer, PartitionScope.WHOLE);
    }

    /** The processor of the clusters of {@code scope} (one owned partition of the requests). */
    public PreemptionProcessor(Settings settings, Clock clock, PreemptionObserver observer, PartitionScope scope) {
        this.settings = settings;
        this.topics = settings.topics();
        this.clock = clock;
        this.observer = observer;
        this.scope = scope;
        this.state = new ClusterState(settings.reservationTimeout(), clock);
    }

    /** Whether this processor decides for the unnamed cluster (a deployment whose records name none). */
    public boolean decidesDefaultCluster() {
        return scope.owns(ClusterArn.UNNAMED.value());
    }

    @Override
    public PreemptionInput decode(ConsumerRecord<String, byte[]> record) {
        return PreemptionInput.decode(topics, record);
    }

    /**
     * A request is planned, and a relayed eviction published, by the owner of its cluster's partition, so two
     * deciders never evict in one cluster and one cluster's evictions keep their order; a record that does not
     * parse, or of an unknown type, is refused where it is.
     */
    @Override
    public int home(ConsumerRecord<String, byte[]> record, PreemptionInput input, int partitions) {
        try {
            String named;
            if (input instanceof PreemptionInput.Eviction e) {
                named = e.eviction().clusterArn();
            } else if (input instanceof PreemptionInput.Request r) {
                PreemptionRequested request = r.request();
                // The cluster as onRequest reads it: the request's, else its submission's.
                named = request.clusterArn() != null ? request.clusterArn()
                        : request.workload() == null ? null : request.workload().clusterArn();
            } else {
                return record.partition();
            }
            return ClusterPartitions.of(ClusterArn.ofNullable(named).value(), partitions);
        } catch (RuntimeException e) {
            return record.partition();
        }
    }

    /** The topics read to build the view (not the requests, not the changelog). */
    List<String> stateTopics() {
        return List.of(topics.submitted(), topics.admitted(), topics.finished(), topics.preempted(), topics.quota(),
                topics.topology());
    }

    // ------------------------------------------------------------------ loop callbacks

    @Override
    public synchronized void rebuild(Properties clientProps, Duration timeout) {
        closeReader();
        state.clear();
        mode = mode.building();
        reader = new StateTopicsReader(clientProps, stateTopics(), KafkaAccess.submissionTopics(topics.submitted()), timeout);
        readToEnd(null);
        LOG.infof("view rebuilt from %s", stateTopics());
    }

    /**
     * A warm standby of this partition (the loop keeps one while another instance decides for it): its view starts
     * empty, its reader at the beginning of the state topics; {@link #follow} fills it, and the loop restores the
     * reservations and graces from the changelog, so that a takeover reads only what was committed since.
     */
    @Override
    public synchronized void startFollowing(Properties clientProps, Duration timeout) {
        closeReader();
        state.clear();
        mode = mode.building();
        reader = new StateTopicsReader(clientProps, stateTopics(), KafkaAccess.submissionTopics(topics.submitted()), timeout);
    }

    /**
     * The state-topic records fetched since the last step into the view, or at the takeover all of them up to
     * their end (what a rebuild reads); nothing is decided. The view does not depend on the order of records of
     * different topics, the changelog's included (see {@link ClusterState}), so following them as they come holds what
     * a rebuild holds.
     */
    @Override
    public synchronized boolean follow(boolean toEnd) {
        if (toEnd) {
            readToEnd(null);
            return true;
        }
        Instant at = clock.instant();
        boolean atEnd = reader.follow(r -> applyState(r, null));
        // at the ends as of its last fetch, made moments before: ENDS_KEPT's minute beyond the transaction timeout covers that
        if (atEnd) atEnds(at);
        return atEnd;
    }

    /** The changelog (the loop's side topic): reservations and graces of the previous owner. */
    @Override
    public synchronized void restoreSide(ConsumerRecord<String, byte[]> record, PreemptionInput input) {
        if (input instanceof PreemptionInput.ChangelogRemoved removed) state.removeChangelogKey(removed.key());
        else if (input instanceof PreemptionInput.RoomReserved reserved) state.restoreReservation(reserved.reservation());
        else if (input instanceof PreemptionInput.GraceStarted grace) state.restoreGrace(grace.grace());
        else if (input instanceof PreemptionInput.Unreadable bad) LOG.errorf("%s; skipped", bad.reason());
    }

    /**
     * The changelog: read to build the view (a rebuild, a standby); once deciding, what this processor writes there is
     * in its view already, and so are the loop's input offsets it holds, so the loop stops reading it back.
     */
    @Override
    public Set<String> ownSideTopics() {
        return Set.of(topics.changelog());
    }

    @Override
    public synchronized void settle(Outbox out) {
        state.pruneEnded(clock.instant());
        tombstoneEnded(out);
        expireGraces(out);
        mode = mode.settled();
        observer.gracesPending(state.graces().size());
    }

    @Override
    public synchronized void apply(ConsumerRecord<String, byte[]> record, PreemptionInput input, Outbox out) {
        if (input instanceof PreemptionInput.Eviction e) {
            onEvictionDecided(record, e.eviction(), out);
        } else if (input instanceof PreemptionInput.Request r) {
            timed(() -> onRequest(record, r.request(), out));
        } else if (input instanceof PreemptionInput.Unreadable bad && !record.topic().equals(topics.changelog())) {
            Runnable refuse = () -> deadLetter(out, record, bad.category(), bad.reason());
            // A request that cannot be read is handled too (refused): the handling timer counts it.
            if (PreemptionRequested.TYPE.equals(CloudEventHeaders.text(record.headers(), CloudEvents.TYPE))) timed(refuse);
            else refuse.run();
        }
        // the changelog's records: our own writes, already in the view
    }

    private void timed(Runnable handling) {
        long start = System.nanoTime();
        try {
            handling.run();
        } finally {
            observer.handled(Duration.ofNanos(System.nanoTime() - start));
        }
    }

    @Override
    public synchronized void afterBatch(Outbox out) {
        expireGraces(out);
        tombstoneEnded(out);
        observer.gracesPending(state.graces().size());
    }

    @Override
    public synchronized void revoked() {
        mode = mode.revoked();
        closeReader();
        state.clear();
    }

    /**
     * A grace period ended with no record arriving: the loop runs a batch for it by itself ({@link #afterBatch}), which
     * publishes the eviction (the loop's one wake-up; this decider keeps no timer).
     */
    @Override
    public synchronized boolean dueWhileIdle(Instant now) {
        return mode == Mode.DECIDING && state.graces().stream().anyMatch(g -> !g.deadline().isAfter(now));
    }

    // ------------------------------------------------------------------ requests

    private void onRequest(ConsumerRecord<String, byte[]> record, PreemptionRequested request, Outbox out) {
        if (request.workloadId() == null || request.workloadId().isBlank()) {
            deadLetter(out, record, "workloadId: is required (the preemptor's id)");
            return;
        }
        WorkloadSubmitted spec = request.workload();
        if (spec == null) {
            deadLetter(out, record, "workload: is required (the preemptor's submission)");
            return;
        }
        if (!request.workloadId().equals(spec.workloadId())) {
            deadLetter(out, record, "workload.workloadId: must equal workloadId '" + request.workloadId() + "', was '"
                    + spec.workloadId() + "'");
            return;
        }
        catchUp(out);
        ClusterArn cluster;
        String named = request.clusterArn() != null ? request.clusterArn() : spec.clusterArn();
        try {
            cluster = ClusterArn.ofNullable(named);
        } catch (IllegalArgumentException e) {
            deadLetter(out, record, "clusterArn: " + e.getMessage());
            return;
        }
        if (spec.clusterArn() != null && !spec.clusterArn().equals(cluster.value())) {
            deadLetter(out, record, "workload.clusterArn: must equal clusterArn '" + cluster + "', was '" + spec.clusterArn() + "'");
            return;
        }
        state.onRequest(request.workloadId(), cluster);
        Instant now = clock.instant();
        WorkloadValidation.Result validated = WorkloadValidation.validate(spec, state.validationContext(cluster),
                request.requestedAt() == null ? now : request.requestedAt());
        if (validated instanceof WorkloadValidation.Invalid invalid) {
            deadLetter(out, record, "workload: " + invalid.reason() + ": " + invalid.message());
            return;
        }
        Workload preemptor = ((WorkloadValidation.Valid) validated).workload();
        String id = preemptor.id();
        PreemptorState where = state.preemptorState(id);
        if (where != PreemptorState.PENDING) {
            // Stale: it was admitted, finished or cancelled, or room is being made for it already.
            skip(id, label(where), "request for " + id + " is stale: " + where);
            return;
        }
        PlanningView view = state.planningView(cluster);
        if (fitsNow(view, preemptor)) {
            skip(id, "AlreadyFits", id + " fits without evicting anything now");
            return;
        }
        PlanResult result = PreemptionPlanner.plan(view, preemptor, request::mayEvict);
        if (result instanceof PlanResult.NoPlan none) {
            skip(id, "NoPlan", none.reason());
            return;
        }
        PlanResult.PreemptionPlan plan = (PlanResult.PreemptionPlan) result;
        boolean anyGrace = false;
        for (Victim v : plan.victims()) {
            Duration grace = gracePeriod(v.workloadId());
            if (grace.isZero() || grace.isNegative()) {
                publishEviction(v, id, out);
            } else {
                startGrace(v, id, now.plus(grace), out);
                anyGrace = true;
            }
        }
        if (!anyGrace) reserveRoom(cluster, preemptor, out);
        LOG.infof("%s: evicting %s", id, plan.victims().stream().map(v -> v.workloadId() + " (" + v.reason() + ")").toList());
    }

    // ------------------------------------------------------------------ evictions admission-service decided

    /**
     * Publishes an eviction admission-service decided and applied itself (NodeFailure, QuotaRemoved) on the preempted
     * topic, in this transaction with the record's offset, so exactly once; and counts it in the view at once, as an
     * eviction of its own (it is read back later like any other). It is admission's decision: nothing is checked
     * against the view (the workload may even be admitted again by now, which the view's counts allow for), only
     * that the record is one.
     */
    private void onEvictionDecided(ConsumerRecord<String, byte[]> record, EvictionDecided eviction, Outbox out) {
        List<Violation> violations = eviction.violations();
        if (!violations.isEmpty()) {
            deadLetter(out, record, String.join("; ", violations.stream().map(Violation::toString).toList()));
            return;
        }
        if (record.key() != null && !record.key().equals(eviction.workloadId())) {
            deadLetter(out, record, "key: the record key must be absent or the workloadId '" + eviction.workloadId() + "'");
            return;
        }
        String id = CloudEventHeaders.text(record.headers(), CloudEvents.ID);
        if (id == null || id.isBlank()) {
            deadLetter(out, record, "ce_id: is required (the published eviction takes it as its own)");
            return;
        }
        // Admission's id of the eviction (workload id and record version): the one it gave the event when it published it.
        out.emit(topics.preempted(), eviction.workloadId(), eviction.toEvent(), WorkloadPreempted.TYPE, id);
        state.recordEviction(eviction.workloadId());
        ClusterArn cluster = eviction.cluster();
        out.afterCommit(() -> observer.relayed(cluster, eviction.team(), eviction.reason()));
    }

    private static String label(PreemptorState s) {
        return switch (s) {
            case UNKNOWN -> "UnknownPreemptor";
            case ADMITTED -> "AlreadyAdmitted";
            case FINISHED -> "PreemptorFinished";
            case ROOM_RESERVED -> "RoomAlreadyMade";
            case VICTIMS_IN_GRACE -> "VictimsInGrace";
            case PENDING -> "Pending";
        };
    }

    private void skip(String id, String why, String message) {
        LOG.infof("no eviction for %s: %s", id, message);
        observer.noVictims(why);
    }

    private static boolean fitsNow(PlanningView view, Workload w) {
        if (!view.ledger().check(w.team(), w.requestsByInstanceType(), true).fits()) return false;
        return view.topology().copy().place(w.podSets()) instanceof PlacementResult.Placed;
    }

    private void publishEviction(Victim v, String preemptorId, Outbox out) {
        Instant now = clock.instant();
        ClusterArn cluster = state.clusterOf(v.workloadId());
        WorkloadPreempted event = new WorkloadPreempted(v.workloadId(), v.team(), preemptorId, v.reason(), v.message(), now,
                cluster.orNull());
        out.emit(topics.preempted(), v.workloadId(), event, WorkloadPreempted.TYPE,
                v.workloadId() + ":" + state.admissions(v.workloadId()) + ":preempted");
        state.recordEviction(v.workloadId());
        observer.evicted(cluster, v.team(), v.reason());
    }

    private void startGrace(Victim v, String preemptorId, Instant deadline, Outbox out) {
        Instant now = clock.instant();
        PendingGrace g = new PendingGrace(v.workloadId(), v.team(), preemptorId, v.reason(), v.message(), now, deadline);
        state.startGrace(g);
        out.emit(topics.changelog(), g.key(), g, EventTypes.CHANGELOG, g.key() + ":" + state.admissions(v.workloadId()));
        String message = "to be preempted by " + preemptorId + " (" + v.reason() + ") at " + deadline
                + ", after its grace period; it keeps its placement until then: " + v.message();
        out.emit(topics.status(), v.workloadId(), new WorkloadStatus(v.workloadId(), v.team(), WorkloadState.Admitted,
                PREEMPTION_PENDING, message, now, state.clusterOf(v.workloadId()).orNull()), WorkloadStatus.TYPE, v.workloadId() + ":" + state.admissions(v.workloadId())
                + ":preemption-pending");
    }

    /** Holds the room the evictions made for the preemptor until its admission shows up. */
    private void reserveRoom(ClusterArn cluster, Workload preemptor, Outbox out) {
        PlanningView after = state.planningView(cluster);
        Topology topology = after.topology().copy();
        if (!(topology.place(preemptor.podSets()) instanceof PlacementResult.Placed placed)) {
            LOG.warnf("after the evictions %s still does not place in this view; no room reserved", preemptor.id());
            return;
        }
        Reservation r = new Reservation(preemptor.id(), preemptor.team(), state.admissions(preemptor.id()),
                WorkloadAdmitted.podSets(placed.placement()), clock.instant(), cluster.orNull());
        state.reserve(r);
        out.emit(topics.changelog(), r.key(), r, EventTypes.CHANGELOG, r.key() + ":" + r.admissionsBefore());
    }

    /** Publishes the evictions whose grace ended; makes room for preemptors with no victim left in grace. */
    private void expireGraces(Outbox out) {
        Instant now = clock.instant();
        if (state.graces().stream().noneMatch(g -> !g.deadline().isAfter(now))) return;
        catchUp(out); // a victim may have finished meanwhile: it is then not evicted
        TreeSet<String> preemptors = new TreeSet<>();
        for (PendingGrace g : state.graces()) {
            if (g.deadline().isAfter(now)) continue;
            state.endGraceQuietly(g.workloadId());
            out.tombstone(topics.changelog(), g.key());
            if (state.isRunning(g.workloadId())) {
                publishEviction(new Victim(g.workloadId(), g.team(), g.reason(), g.message()), g.preemptorWorkloadId(), out);
                preemptors.add(g.preemptorWorkloadId());
            }
        }
        for (String p : preemptors) {
            if (state.preemptorState(p) != PreemptorState.PENDING) continue;
            WorkloadSubmitted spec = state.spec(p);
            if (spec != null) reserveRoom(state.clusterOf(p), state.toWorkload(spec), out);
        }
    }

    private Duration gracePeriod(String victimId) {
        String cls = state.priorityClass(victimId);
        if (cls == null) return Duration.ZERO;
        Duration d = settings.gracePeriods().get(cls);
        if (d == null) d = settings.gracePeriods().get(cls + "-priority");
        return d == null ? Duration.ZERO : d;
    }

    // ------------------------------------------------------------------ state topics

    private void catchUp(Outbox out) {
        readToEnd(out);
        state.pruneEnded(clock.instant());
        tombstoneEnded(out);
    }

    /**
     * Every state-topic record committed up to now into the view; then the workloads that ended long enough before
     * are forgotten ({@link ClusterState#forgetEnded}), so that the view's size and a plan's cost follow what runs.
     */
    private void readToEnd(Outbox out) {
        Instant at = clock.instant();
        reader.catchUp(r -> applyState(r, out), false);
        // A team's topic created moments ago: looked for now rather than at the next scan, which would leave its
        // admitted workloads out of the plans until then.
        if (state.submissionsMissed()) reader.catchUp(r -> applyState(r, out), true);
        atEnds(at);
    }

    /** The view holds every state-topic record committed before {@code at}: what ended long enough before is forgotten. */
    private void atEnds(Instant at) {
        state.caughtUp(at);
        state.forgetEnded();
    }

    private void tombstoneEnded(Outbox out) {
        for (String key : state.drainEnded()) out.tombstone(topics.changelog(), key);
    }

    /**
     * One state-topic record into the view. A quota or topology record that does not translate is refused as
     * admission refuses it: dead-lettered with the reason when read in a batch ({@code out}); logged when read while
     * the view is rebuilt or followed, where there is no transaction to write a letter in (and a rebuild reads every
     * record again: a letter per rebuild would repeat). A bad workload record is skipped: its consumer of record
     * (admission) dead-letters it.
     */
    private void applyState(ConsumerRecord<String, byte[]> r, Outbox out) {
        String topic = r.topic();
        // A copy that admission forwarded to its cluster's partition: the original counts already (evictions are
        // counted, so one of the two is skipped).
        if (r.headers().lastHeader(TransactionalLoop.FORWARDED_HEADER) != null) return;
        if (topic.equals(topics.quota())) {
            Translation<QuotaChange> read = QuotaRecordTranslator.translate(r.key(), r.value());
            if (read instanceof Translation.Translated<QuotaChange> t) state.onQuota(t.value());
            else refuse(r, (Translation.Refused<QuotaChange>) read, out);
            return;
        }
        if (topic.equals(topics.topology())) {
            Translation<TopologyChange> read = TopologyRecordTranslator.translate(r.key(), r.value());
            if (read instanceof Translation.Translated<TopologyChange> t) state.onTopology(t.value());
            else refuse(r, (Translation.Refused<TopologyChange>) read, out);
            return;
        }
        try {
            if (r.value() == null) {
                return;
            } else if (topic.equals(topics.submitted()) || KafkaAccess.teamOfSubmissionTopic(topics.submitted(), topic) != null) {
                WorkloadSubmitted s = EventCodec.read(r.value(), WorkloadSubmitted.class);
                // the same identity rules as admission, which dead-letters the others: a valid id, and on a team's own
                // submission topic a workload of that team
                String topicTeam = KafkaAccess.teamOfSubmissionTopic(topics.submitted(), topic);
                boolean identified = s != null && WorkloadIds.isValid(s.workloadId()) && (r.key() == null || r.key().equals(s.workloadId()))
                        && (topicTeam == null || topicTeam.equals(s.team()));
                if (identified && s.podSets() != null && s.namespace() != null) state.onSubmitted(s);
            } else if (topic.equals(topics.admitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                if (a != null && a.workloadId() != null && a.podSets() != null) state.onAdmitted(a);
            } else if (topic.equals(topics.finished())) {
                WorkloadFinished f = EventCodec.read(r.value(), WorkloadFinished.class);
                if (f != null && f.workloadId() != null) state.onFinished(f.workloadId(), f.outcome());
            } else if (topic.equals(topics.preempted())) {
                WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                if (p != null && p.workloadId() != null) state.onPreempted(p.workloadId());
            }
        } catch (RuntimeException e) {
            // Not ours to refuse: the topic's consumer of record (admission) dead-letters it.
            LOG.debugf("%s-%d@%d skipped in the view: %s", topic, r.partition(), r.offset(), e.getMessage());
        }
    }

    // ------------------------------------------------------------------ helpers

    /** A state record that does not translate: dead-lettered with the translator's reason, or logged while restoring. */
    private void refuse(ConsumerRecord<String, byte[]> record, Translation.Refused<?> refused, Outbox out) {
        if (out == null) {
            LOG.warnf("%s-%d@%d refused while restoring: %s", record.topic(), record.partition(), record.offset(), refused.reason());
            return;
        }
        deadLetter(out, record, refused.kind() == Translation.Kind.UNREADABLE ? DeadLetterMetrics.Reason.UNREADABLE
                : DeadLetterMetrics.Reason.INVALID, refused.reason());
    }

    private void deadLetter(Outbox out, ConsumerRecord<String, byte[]> record, String reason) {
        deadLetter(out, record, DeadLetterMetrics.Reason.INVALID, reason);
    }

    private void deadLetter(Outbox out, ConsumerRecord<String, byte[]> record, DeadLetterMetrics.Reason category,
                            String reason) {
        out.deadLetter(record, reason);
        out.afterCommit(() -> {
            observer.deadLettered(record.topic(), category);
            if (isRequest(record)) observer.noVictims("DeadLettered");
        });
    }

    /** Whether a record of the requests topic is (meant as) a preemption request, not an eviction admission decided. */
    private boolean isRequest(ConsumerRecord<String, byte[]> record) {
        return record.topic().equals(topics.preemptionRequested())
                && !EvictionDecided.TYPE.equals(CloudEventHeaders.text(record.headers(), CloudEvents.TYPE));
    }

    @Override
    public void deadLetterWriteFailed(ConsumerRecord<String, byte[]> record, Exception cause) {
        observer.deadLetterWriteFailed(record.topic());
    }

    @Override
    public void refusedAfterFailure(ConsumerRecord<String, byte[]> record, String reason) {
        observer.deadLettered(record.topic(), DeadLetterMetrics.Reason.FAILED);
        if (isRequest(record)) observer.noVictims("DeadLettered");
    }

    private void closeReader() {
        if (reader != null) {
            try {
                reader.close();
            } catch (RuntimeException e) {
                LOG.debug("closing the state reader", e);
            }
            reader = null;
        }
    }

    // ------------------------------------------------------------------ reads (HTTP, metrics, tests)

    /** True while this instance decides and its view is rebuilt. */
    public boolean isReady() {
        return mode == Mode.DECIDING;
    }

    /** Victims waiting for their grace period to end. */
    public synchronized List<PendingGrace> pendingGraces() {
        return List.copyOf(state.graces());
    }

    /**
     * One cluster as this decider would plan on it now (usage, node reservations and the running
     * workloads that may be chosen), for tests that hold it against admission's view. Like a plan,
     * it first reads the state topics up to their ends; a bad record met here is skipped and
     * logged, as on a rebuild.
     */
    public synchronized ClusterView planningView(ClusterArn cluster) {
        readToEnd(null);
        return state.planningView(cluster);
    }

    /** Running workloads (admitted, not evicted, not finished) in this view, for tests and diagnostics. */
    public synchronized List<String> running() {
        return state.governedOrUnnamed().stream().flatMap(c -> state.planningView(c).candidates().values().stream())
                .flatMap(List::stream).map(RunningWorkload::id).sorted().toList();
    }
}
