package dev.taskgov.admission;

import static dev.taskgov.service.support.DeadLetterMetrics.Reason.UNREADABLE;

import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.QuotaChange;
import dev.taskgov.core.events.QuotaRecordTranslator;
import dev.taskgov.core.events.TopologyChange;
import dev.taskgov.core.events.TopologyRecordTranslator;
import dev.taskgov.core.events.Translation;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.service.support.auth.AuditRecords;
import dev.taskgov.core.events.WorkloadPodsReady;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.FinishedRetention;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.ChangeResult;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SubmitResult;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.admission.AdmissionState.Governed;
import dev.taskgov.admission.AdmissionState.Mode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.FinishedRetention;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.scheduling.ChangeResult;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SubmitResult;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.view.ClusterInputs;
import dev.taskgov.core.view.ClusterInputsByCluster;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.TransactionalLoop;
import dev.taskgov.service.support.auth.AuditRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;

/**
 * The decider of one partition's clusters, and the thin translation between Kafka records and the core
 * {@link Scheduler} (DELEGATED mode): a record decoded once ({@link DeciderInput}), the core called, the workload's
 * record persisted to the changelog, the decisions emitted. Runs on the loop thread, under the lock of its
 * {@link AdmissionState}, which its read side ({@link #reads}) shares.
 */
public final class AdmissionProcessor implements TransactionalLoop.Processor<DeciderInput>, TransactionalLoop.Standby {

    private static final Logger LOG = Logger.getLogger(AdmissionProcessor.class);

    private final DeciderTopics topics;
    private final java.time.Clock clock;
    private final AdmissionObserver observer;
    /** The partition (set of clusters) this processor decides for; {@link PartitionScope#WHOLE} for a replica. */
    private final PartitionScope scope;
    private final AdmissionState state;
    private final AdmissionReads reads;
    /** How workload records are written (the changelog and status topics), held back and forgotten. */
    private final WorkloadWrites writes;

    /** The state's workload records, cluster records and schedulers (the same objects, never replaced). */
    private final HeldWorkloads workloads;
    private final ClusterInputsByCluster inputs;
    private final Map<ClusterArn, Governed> clusters;

    /** A processor of every cluster (a deployment whose inputs have one partition). */
    public AdmissionProcessor(DeciderTopics topics, java.time.Clock clock, AdmissionObserver observer) {
        this(topics, clock, observer, PartitionScope.WHOLE, DEFAULT_RETENTION);
    }

    /**
     * The processor of the clusters of {@code scope} (one owned partition of the inputs).
     *
     * @param retention how long a workload that ended is kept before it is forgotten
     */
    public AdmissionProcessor(DeciderTopics topics, java.time.Clock clock, AdmissionObserver observer, PartitionScope scope,
                              FinishedRetention retention) {
        this(topics, clock, observer, scope, retention, null);
    }

    /**
     * @param auditTopic where the decider records what it reads from Kafka that changes a workload (submissions and
     *                   finishes: they reach no HTTP door that could record them), in the transaction of the decision;
     *                   null records nothing (a test's isolated cluster, which has no audit topic)
     */
    public AdmissionProcessor(DeciderTopics topics, java.time.Clock clock, AdmissionObserver observer, PartitionScope scope,
                              FinishedRetention retention, String auditTopic) {
        this(topics, clock, observer, scope, retention, auditTopic, Mode.BUILDING);
    }

    private AdmissionProcessor(DeciderTopics topics, java.time.Clock clock, AdmissionObserver observer, PartitionScope scope,
                               FinishedRetention retention, String auditTopic, Mode initial) {
        this.topics = topics;
        this.clock = clock;
        this.observer = observer;
        this.scope = scope;
        this.auditTopic = auditTopic;
        this.state = new AdmissionState(clock, scope, topics.changelog(), initial);
        this.workloads = state.workloads;
        this.inputs = state.inputs;
        this.clusters = state.clusters;
        this.reads = new AdmissionReads(state, this);
        this.writes = new WorkloadWrites(topics, clock, observer, state, retention);
    }

    /**
     * The read replica's state (every cluster): it follows the changelog, quota and topology topics through its
     * {@link #reads} and never decides.
     */
    static AdmissionProcessor replica(DeciderTopics topics, java.time.Clock clock) {
        return new AdmissionProcessor(topics, clock, AdmissionObserver.NONE, PartitionScope.WHOLE, DEFAULT_RETENTION, null,
                Mode.FOLLOWING);
    }

    private final String auditTopic;

    /** The service name of the decider's audit records (their chain). */
    static final String AUDIT_SERVICE = "admission-service";

    /** How often a workload's figures alone may be written, by default (taskgov.admission.status-refresh). */
    public static final Duration DEFAULT_STATUS_REFRESH = Duration.ofSeconds(10);

    /** Sets how often a workload's figures alone may be written (zero: every change at once). */
    public AdmissionProcessor statusRefresh(Duration refresh) {
        writes.statusRefresh(refresh);
        return this;
    }

    /** Sets how many records of figures alone may be written per second over every workload (zero or less: no bound). */
    public AdmissionProcessor statusFiguresPerSecond(int perSecond) {
        writes.figuresPerSecond(perSecond);
        return this;
    }

    /**
     * Sets gang admission's setting of each cluster (docs/semantics.md, "Gang admission"), asked when a cluster's
     * scheduler is restored; before the state is built.
     */
    public AdmissionProcessor waitForPodsReady(WaitForPodsReadyByCluster setting) {
        state.waitForPodsReady(setting);
        return this;
    }

    /** The retention of the configuration's defaults ({@code taskgov.admission.finished-retention} and {@code -max}). */
    public static final FinishedRetention DEFAULT_RETENTION = new FinishedRetention(Duration.parse(FinishedRetention.DEFAULT_PERIOD),
            Integer.parseInt(FinishedRetention.DEFAULT_MAX_ENDED));

    /** The read side of this processor's state (HTTP reads, the gauges). */
    public AdmissionReads reads() {
        return reads;
    }

    DeciderTopics topics() {
        return topics;
    }

    /** Whether this processor decides for {@code cluster}. */
    public boolean owns(ClusterArn cluster) {
        return state.owns(cluster);
    }

    /** True while this instance decides and its state is rebuilt (replica mode: once read to the end). */
    public boolean isReady() {
        return state.mode().ready();
    }

    /**
     * Records a submission or finish read from Kafka, in the decision's transaction. Kafka does not tell a consumer who
     * wrote a record; the topic does: a team's own submission topic is written only by that team's principal (the
     * broker's ACLs), the shared topics only by the administrator and the services granted them. The event id is the
     * record's coordinates, so a transaction retried after a crash records it once (quota-service stores an id once).
     */
    private void audit(Outbox out, ConsumerRecord<String, byte[]> record, String operation, String target, String outcome) {
        if (auditTopic == null) return;
        String topicTeam = KafkaAccess.teamOfSubmissionTopic(topics.submitted(), record.topic());
        if (topicTeam == null) topicTeam = KafkaAccess.teamOfPodsReadyTopic(topics.podsReady(), record.topic());
        String writer = topicTeam != null ? KafkaAccess.teamPrincipal(topicTeam)
                : "kafka:" + record.topic() + " (admin or a service granted it)";
        String eventId = "kafka:" + record.topic() + "-" + record.partition() + "@" + record.offset();
        AuditEvent event = new AuditEvent(eventId, clock.instant(), AUDIT_SERVICE, writer, operation, target, outcome, null, null);
        out.emit(auditTopic, eventId, event, AuditRecords.TYPE, eventId);
    }

    // ------------------------------------------------------------------ routing and application

    /** The record as admission reads it; a submission with the cluster it goes to, chosen once for routing and applying. */
    @Override
    public DeciderInput decode(ConsumerRecord<String, byte[]> record) {
        synchronized (state) {
            return DeciderInput.decode(topics, record, s -> WorkloadCluster.choose(s.clusterArn(), inputs.governed()));
        }
    }

    /**
     * A workload record is decided by the owner of its cluster's partition: a submission's cluster as admission
     * chooses it (named, or the one governed cluster); a finish's or a readiness report's named cluster, else the one
     * governed cluster, else every partition (only the owner of the workload acts on it); an eviction's cluster. A record that does not
     * parse is refused where it is, and the side topics' records are applied where they are read.
     */
    @Override
    public int home(ConsumerRecord<String, byte[]> record, DeciderInput input, int partitions) {
        synchronized (state) {
            try {
                if (input instanceof DeciderInput.Submitted submitted) {
                    WorkloadSubmitted s = submitted.submission();
                    // A refused one is kept under the cluster it names (or the unnamed one, onSubmitted): its record
                    // must be on that cluster's changelog partition, or the owner's next rebuild would not restore it.
                    return ClusterPartitions.of(keptUnder(s, submitted.where()).value(), partitions);
                }
                if (input instanceof DeciderInput.Finished finished) return byNamedCluster(finished.finish().clusterArn(), partitions);
                if (input instanceof DeciderInput.PodsReady ready) return byNamedCluster(ready.ready().clusterArn(), partitions);
                if (input instanceof DeciderInput.Preempted preempted) {
                    return ClusterPartitions.of(preempted.preemption().cluster().value(), partitions);
                }
            } catch (RuntimeException e) {
                return record.partition(); // a cluster that is not a valid name: refused where it is
            }
            return record.partition();
        }
    }

    /**
     * The partition of a record that may name its workload's cluster (a finish, a readiness report): the named one,
     * else the one governed cluster, else every partition (only the owner of the workload acts on it).
     */
    private int byNamedCluster(String named, int partitions) {
        if (named != null && ClusterArn.isValid(named)) return ClusterPartitions.of(named, partitions);
        if (inputs.governed().size() == 1) return ClusterPartitions.of(inputs.governed().first().value(), partitions);
        return TransactionalLoop.EVERY_PARTITION;
    }

    /** The cluster a submission is kept under: the one chosen, else (refused) the one it names, else the unnamed one. */
    private static ClusterArn keptUnder(WorkloadSubmitted s, WorkloadCluster.Result where) {
        return where instanceof WorkloadCluster.Chosen c ? c.cluster()
                : ClusterArn.isValid(s.clusterArn()) ? ClusterArn.of(s.clusterArn()) : ClusterArn.UNNAMED;
    }

    @Override
    public void apply(ConsumerRecord<String, byte[]> record, DeciderInput input, Outbox out) {
        synchronized (state) {
            if (input instanceof DeciderInput.Submitted s) onSubmitted(record, s, out);
            else if (input instanceof DeciderInput.Finished f) onFinished(record, f.finish(), out);
            else if (input instanceof DeciderInput.PodsReady r) onPodsReady(record, r, out);
            else if (input instanceof DeciderInput.Preempted p) onPreempted(record, p.preemption(), out);
            else if (input instanceof DeciderInput.QuotaChanged q) readQuotaRecord(record, q.translation(), out);
            else if (input instanceof DeciderInput.TopologyChanged t) readNodeRecord(record, t.translation(), out);
            else if (input instanceof DeciderInput.Unreadable u) deadLetter(out, record, u.category(), u.reason());
            // DeciderInput.Changelog: this decider's own output, in its state already
        }
    }

    @Override
    public void afterBatch(Outbox out) {
        synchronized (state) {
            writes.forgetExpired(out);
            writes.writeDueFigures(out);
            Instant now = clock.instant();
            for (Governed g : clusters.values()) {
                boolean timersDue = state.deadlineDue(g, now);
                if (g.dirty || timersDue) cycle(g, out);
                if (timersDue) out.afterCommit(() -> observer.deadlinesReached(g.cluster, now));
            }
            observer.stateChanged(reads);
        }
    }

    /**
     * Time alone made work due: an ended workload's retention elapsed, held figures are due, or one of gang
     * admission's timers (a readiness deadline, the end of a backoff) is reached; done without waiting for the next
     * record ({@link #afterBatch}), in a transaction of its own, as every other decision.
     */
    @Override
    public boolean dueWhileIdle(Instant now) {
        synchronized (state) {
            return state.mode() == Mode.DECIDING && (writes.dueAt(now) || state.deadlineDue(now));
        }
    }

    // ------------------------------------------------------------------ recovery

    /**
     * The whole state comes from the side topics: the changelog partition (the workload records) and the quota and
     * topology topics; the loop reads them, so a warm standby that followed them holds what a rebuild would (the
     * {@link TransactionalLoop.Standby} defaults).
     */
    @Override
    public void rebuild(Properties clientProps, Duration timeout) {
        synchronized (state) {
            clear();
        }
    }

    /** The changelog is this decider's own output: once it decides, what it writes is in its state already. */
    @Override
    public Set<String> ownSideTopics() {
        return Set.of(topics.changelog());
    }

    /**
     * While the state is built: a quota or node record updates the view; a changelog record is kept as it is, the
     * latest per workload (a tombstone removes it), and read when the state settles, so a standby following a busy
     * partition parses only what is current at its takeover.
     */
    @Override
    public void restoreSide(ConsumerRecord<String, byte[]> record, DeciderInput input) {
        synchronized (state) {
            restore(record, input);
        }
    }

    /** A replica's record, as a rebuild restores it (under the state's lock). */
    void restore(ConsumerRecord<String, byte[]> record) {
        restore(record, decode(record));
    }

    private void restore(ConsumerRecord<String, byte[]> record, DeciderInput input) {
        if (input instanceof DeciderInput.Changelog c) {
            if (c.workloadId() == null) return;
            state.keepUnparsed(c.workloadId(), c.value());
        } else if (input instanceof DeciderInput.QuotaChanged q) {
            readQuotaRecord(record, q.translation(), null);
        } else if (input instanceof DeciderInput.TopologyChanged t) {
            readNodeRecord(record, t.translation(), null);
        }
    }

    @Override
    public void settle(Outbox out) {
        synchronized (state) {
            state.restoreWorkloads().forEach(writes::expireLater);
            state.restoreSchedulers();
            state.moveTo(state.mode().settled());
            // What ended long enough ago while no one decided (the previous owner stopped) is forgotten now.
            writes.forgetExpired(out);
            for (Governed g : clusters.values()) cycle(g, out);
            observer.stateChanged(reads);
        }
    }

    @Override
    public void revoked() {
        synchronized (state) {
            clear();
        }
    }

    /** Drops the state (the decider builds it again, a replica follows its topics again). */
    void clear() {
        state.clear();
        writes.clear();
    }

    /** A cluster's state, created on first use; once deciding, with a scheduler restored from its records. */
    private Governed cluster(ClusterArn c) {
        return state.cluster(c);
    }

    // ------------------------------------------------------------------ inputs

    /**
     * @param topicTeam the team whose own submission topic carried the record (only that team's principal may
     *                  write it: the broker's ACLs), or null for the shared topic that only trusted services write
     */
    private void onSubmitted(ConsumerRecord<String, byte[]> record, DeciderInput.Submitted submitted, Outbox out) {
        WorkloadSubmitted s = submitted.submission();
        String topicTeam = submitted.topicTeam();
        if (!identified(record, s.workloadId(), out)) return;
        String target = "workload " + s.workloadId();
        if (topicTeam != null && !topicTeam.equals(s.team())) {
            String why = "namespace: a submission on team " + topicTeam + "'s topic " + record.topic()
                    + " must be for team " + topicTeam + " (namespace hyperpod-ns-" + topicTeam + "), was namespace "
                    + s.namespace();
            deadLetter(out, record, why);
            audit(out, record, "SubmitWorkload", target, AuditEvent.refused("AccessDeniedException", why));
            return;
        }
        WorkloadRecord known = workloads.get(s.workloadId());
        if (known != null && !known.team().equals(s.team() == null ? "" : s.team())) {
            // The id belongs to the team that first submitted it: refused where the submitter can find why, and
            // the owner's workload is left as it was.
            deadLetter(out, record, new WorkloadIdTaken(s.workloadId(), s.team()).message());
            return;
        }
        if (known != null) {
            LOG.debugf("workload %s is already known (%s); the submission changes nothing", s.workloadId(), known.state());
            audit(out, record, "SubmitWorkload", target, "Unchanged: workload already known (" + known.state() + ")");
            return;
        }
        Instant now = clock.instant();
        // The platform's time of first receipt is the workload's place in the queue; a client's time is kept as
        // information only. The record written below keeps it, so a rebuild from the changelog restores this time.
        s = s.receivedAt(now);
        String team = s.team() == null ? "" : s.team();
        WorkloadCluster.Result where = submitted.where();
        if (where instanceof WorkloadCluster.Refused refused) {
            // Kept under the cluster it named (or none): it is in no cluster's queue.
            writes.persist(WorkloadRecord.first(s.clusterArn() == null || ClusterArn.isValid(s.clusterArn()) ? s : s.withClusterArn(null),
                    team, null, 0, s.submittedAt() == null ? now : s.submittedAt(), WorkloadState.Rejected,
                    RejectReason.UnknownCluster.name(), refused.violation().toString(), now), out);
            observer.rejected(ClusterArn.isValid(s.clusterArn()) ? ClusterArn.of(s.clusterArn()) : ClusterArn.UNNAMED,
                    team, RejectReason.UnknownCluster.name());
            audit(out, record, "SubmitWorkload", target, "Rejected: " + RejectReason.UnknownCluster.name() + ": "
                    + refused.violation());
            return;
        }
        ClusterArn chosen = ((WorkloadCluster.Chosen) where).cluster();
        if (!owns(chosen)) {
            // Only where a topic's partitions do not match the workload topics' (a team's submission topic created
            // with another count): the record's partition number is not its cluster's, and no owner can take it.
            String why = "partition: " + record.topic() + "-" + record.partition() + " is not the partition of cluster "
                    + chosen + " (" + scope.home(chosen.value()) + " of " + scope.partitions() + "); a submission topic must "
                    + "have as many partitions as " + topics.submitted();
            deadLetter(out, record, why);
            audit(out, record, "SubmitWorkload", target, "Failed: " + why);
            return;
        }
        Governed g = cluster(chosen);
        s = s.withClusterArn(g.cluster.orNull());
        SubmitResult result = g.scheduler.submit(s);
        if (result instanceof SubmitResult.Accepted a) {
            Workload w = a.workload();
            writes.persistQueued(WorkloadRecord.first(s.withSubmittedAt(w.submittedAt()), w.team(), w.priorityClass(), w.priority(),
                    w.submittedAt(), WorkloadState.Pending, PendingReason.Queued.name(),
                    "queued: looked at when it reaches the head of its team's queue (the head goes first, also while it waits for a preemption)", now), out);
            g.dirty = true;
            audit(out, record, "SubmitWorkload", target, AuditEvent.ALLOWED);
        } else if (result instanceof SubmitResult.Rejected r) {
            Decision.Reject d = r.decision();
            writes.persist(WorkloadRecord.first(s, team, null, 0, s.submittedAt() == null ? now : s.submittedAt(),
                    WorkloadState.Rejected, d.reason().name(), d.message(), now), out);
            observer.rejected(g.cluster, team, d.reason().name());
            audit(out, record, "SubmitWorkload", target, "Rejected: " + d.reason().name() + ": " + d.message());
        } else if (result instanceof SubmitResult.IdTaken t) {
            deadLetter(out, record, t.refusal().message());
            audit(out, record, "SubmitWorkload", target, "Refused: " + t.refusal().message());
        } else if (result instanceof SubmitResult.Ignored i) {
            LOG.debugf("%s", i.message());
            audit(out, record, "SubmitWorkload", target, "Unchanged: " + i.message());
        }
    }

    private void onFinished(ConsumerRecord<String, byte[]> record, WorkloadFinished f, Outbox out) {
        if (!identified(record, f.workloadId(), out)) return;
        String target = "workload " + f.workloadId();
        String operation = "FinishWorkload";
        WorkloadRecord rec = workloads.get(f.workloadId());
        if (rec == null) {
            LOG.infof("finish of %s: no such workload; nothing changes", f.workloadId());
            audit(out, record, operation, target, "Unchanged: no such workload");
            return;
        }
        Governed g = cluster(rec.cluster());
        boolean failed = f.outcome() == WorkloadFinished.Outcome.Failed;
        // A retry is queued as of the failure as the platform received it, as a submission is: a finish record's own
        // finishedAt (the writer's clock) could otherwise put a retry ahead of workloads that waited while it ran.
        ChangeResult change = failed ? g.scheduler.fail(f.workloadId(), clock.instant())
                : g.scheduler.finish(f.workloadId());
        if (change.outcome() == ChangeResult.Outcome.Unchanged) {
            LOG.infof("finish of %s: %s", f.workloadId(), change.message());
            audit(out, record, operation, target, "Unchanged: " + change.message());
            return;
        }
        if (change.outcome() == ChangeResult.Outcome.Retrying) {
            // Not final (taskgov.dev/max-retry): pending again, queued as of the failure, admitted again by the usual rules.
            writes.persist(rec.retryAfterFailure(PendingReason.RetryAfterFailure.name(), change.message(),
                    g.scheduler.workload(f.workloadId()).orElseThrow().submittedAt()), out);
            g.dirty = true;
            audit(out, record, operation, target, AuditEvent.ALLOWED + " (" + f.outcome() + "): " + change.message());
            return;
        }
        String outcome = f.outcome() == null ? null : f.outcome().name();
        writes.persist(rec.moveTo(WorkloadState.Finished, outcome, change.message(), clock.instant()), out);
        observer.finished(g.cluster, rec.team());
        g.dirty = true;
        audit(out, record, operation, target, AuditEvent.ALLOWED + " (" + outcome + ")");
    }

    /**
     * Gang admission: every pod of a workload is ready (docs/semantics.md, "Gang admission"). It counts for the
     * workload's current admission; one not running changes nothing (and says so). On a team's own readiness topic a
     * report counts only for that team's workloads: another one is refused to the dead letter, in the same words as
     * an unknown id, so the topic does not tell a team which ids other teams use.
     *
     * @param topicTeam the team whose own readiness topic carried the record, or null for the shared topic that only
     *                  trusted services (the job watcher, this service's HTTP API) write
     */
    private void onPodsReady(ConsumerRecord<String, byte[]> record, DeciderInput.PodsReady input, Outbox out) {
        WorkloadPodsReady r = input.ready();
        String topicTeam = input.topicTeam();
        if (!identified(record, r.workloadId(), out)) return;
        String target = "workload " + r.workloadId();
        String operation = "ReportPodsReady";
        WorkloadRecord rec = workloads.get(r.workloadId());
        if (topicTeam != null && (rec == null || !rec.team().equals(topicTeam))) {
            String why = "workloadId: team " + topicTeam + " has no workload '" + r.workloadId() + "'; a report on "
                    + record.topic() + " counts only for team " + topicTeam + "'s workloads";
            deadLetter(out, record, why);
            audit(out, record, operation, target, "Failed: " + why);
            return;
        }
        if (rec == null) {
            LOG.infof("readiness of %s: no such workload; nothing changes", r.workloadId());
            audit(out, record, operation, target, "Unchanged: no such workload");
            return;
        }
        Governed g = cluster(rec.cluster());
        ChangeResult change = g.scheduler.podsReady(r.workloadId());
        if (change.outcome() != ChangeResult.Outcome.PodsReady) {
            LOG.infof("readiness of %s: %s", r.workloadId(), change.message());
            audit(out, record, operation, target, "Unchanged: " + change.message());
            return;
        }
        writes.persist(rec.moveTo(WorkloadState.Admitted, PODS_READY, "admitted; every pod is ready", clock.instant())
                .withReadiness(true, rec.readinessRequeues(), null), out);
        g.dirty = true;
        audit(out, record, operation, target, AuditEvent.ALLOWED);
    }

    /** The reason of an admitted workload whose pods were all reported ready (gang admission). */
    static final String PODS_READY = "PodsReady";

    private void onPreempted(ConsumerRecord<String, byte[]> record, WorkloadPreempted p, Outbox out) {
        if (!identified(record, p.workloadId(), out)) return;
        if (p.reason() != null && !p.reason().hasPreemptor()) {
            // This service decided these evictions itself and applied them when it handed them to
            // preemption-service to publish; the workload may be admitted again since, so reading one
            // back must change nothing.
            LOG.debugf("eviction of %s (%s) read back; already applied", p.workloadId(), p.reason());
            return;
        }
        WorkloadRecord rec = workloads.get(p.workloadId());
        if (rec == null || rec.state() != WorkloadState.Admitted) {
            // A stale eviction (already finished, or evicted before): nothing to release.
            LOG.infof("eviction of %s ignored: it is %s", p.workloadId(), rec == null ? "unknown" : rec.state());
            return;
        }
        Victim victim = new Victim(p.workloadId(), rec.team(), p.reason(), p.message() == null ? "" : p.message());
        Governed g = cluster(rec.cluster());
        ChangeResult change = g.scheduler.evict(victim, p.preemptorWorkloadId());
        if (change.outcome() != ChangeResult.Outcome.Requeued) {
            LOG.infof("eviction of %s: %s", p.workloadId(), change.message());
            return;
        }
        writes.persist(rec.moveTo(WorkloadState.Pending, PendingReason.Preempted.name(), change.message(), clock.instant()), out);
        g.dirty = true;
    }

    /**
     * Quota records, translated when decoded ({@link QuotaRecordTranslator}): key = {@code <ClusterArn>#<team>} (null value = deleted) or
     * {@code <ClusterArn>#_scheduler-config}; bare keys belong to the unnamed cluster. A record changes only its own
     * cluster; one that does not translate is dead-lettered with the reason.
     */
    private void readQuotaRecord(ConsumerRecord<String, byte[]> record, Translation<QuotaChange> read, Outbox out) {
        if (read instanceof Translation.Refused<QuotaChange> refused) {
            deadLetter(out, record, refused);
            return;
        }
        QuotaChange change = ((Translation.Translated<QuotaChange>) read).value();
        Governed g = cluster(change.cluster());
        if (change instanceof QuotaChange.SchedulerConfigSet set) {
            g.inputs.setConfig(set.config());
            if (g.scheduler != null) g.scheduler.applySchedulerConfig(set.config());
            g.dirty = true;
        } else if (change instanceof QuotaChange.QuotaRemoved removed) {
            g.inputs.removeQuota(removed.team());
            if (g.quotas.remove(removed.team()) != null && g.scheduler != null) g.scheduler.removeQuota(removed.team());
            g.dirty = true;
        } else if (change instanceof QuotaChange.QuotaSet set) {
            g.inputs.putQuota(set.team(), set.request());
            if (g.scheduler == null) return; // resolved at settle time, when every node is known
            try {
                TeamQuota q = g.inputs.quota(set.team());
                g.quotas.put(q.team(), q);
                g.scheduler.applyQuota(q);
                g.dirty = true;
            } catch (ValidationException e) {
                if (ClusterInputs.waitsForTopology(e)) {
                    LOG.infof("quota of %s waits for its instance types to appear in the topology: %s", record.key(), e.getMessage());
                } else {
                    deadLetter(out, record, "quota: " + e.getMessage());
                }
            }
        }
    }

    /**
     * Topology records, translated when decoded ({@link TopologyRecordTranslator}): key = {@code <ClusterArn>#<node>} (bare: the unnamed
     * cluster), null value = node gone; key = {@code <ClusterArn>}: the cluster's declaration (null value: no longer
     * governed). One that does not translate is dead-lettered with the reason.
     */
    private void readNodeRecord(ConsumerRecord<String, byte[]> record, Translation<TopologyChange> read, Outbox out) {
        if (read instanceof Translation.Refused<TopologyChange> refused) {
            deadLetter(out, record, refused);
            return;
        }
        TopologyChange change = ((Translation.Translated<TopologyChange>) read).value();
        if (change instanceof TopologyChange.Undeclared) {
            inputs.undeclare(change.cluster());
            return;
        }
        if (change instanceof TopologyChange.Declared) {
            inputs.declare(change.cluster());
            cluster(change.cluster());
            return;
        }
        Governed g = cluster(change.cluster());
        if (change instanceof TopologyChange.NodeRemoved removed) {
            g.inputs.removeNode(removed.name());
            if (g.scheduler != null) g.scheduler.removeNode(removed.name());
            g.dirty = true;
            return;
        }
        NodeRecord n = ((TopologyChange.NodeSet) change).node();
        g.inputs.putNode(n);
        if (g.scheduler != null) {
            g.inputs.instanceTypes().values().forEach(g.scheduler::upsertInstanceType);
            g.scheduler.upsertNode(g.inputs.node(n.name()));
            reparseQuotas(g, g.scheduler);
        }
        g.dirty = true;
    }

    /** Quotas depend on instance capacities (Count, ratio defaults): parse again with the current ones. */
    private void reparseQuotas(Governed g, Scheduler target) {
        state.reparseQuotas(g, target);
    }


    // ------------------------------------------------------------------ decisions

    private void cycle(Governed g, Outbox out) {
        g.dirty = false;
        for (Decision d : g.scheduler.cycle()) {
            if (d instanceof Decision.Admit a && a.nodeReplaced()) {
                onNodeReplaced(g, a, out);
            } else if (d instanceof Decision.Admit a) {
                onAdmit(g, a, out);
            } else if (d instanceof Decision.Evict e) {
                onEvicted(g, e, out);
            } else if (d instanceof Decision.StayPending p && p.reason() == PendingReason.Backoff) {
                onBackoff(g, p, out);
            } else if (d instanceof Decision.StayPending p) {
                writes.update(p.workloadId(), WorkloadState.Pending, p.reason().name(), p.message(), out);
            } else if (d instanceof Decision.Reject r) {
                writes.update(r.workloadId(), WorkloadState.Rejected, r.reason().name(), r.message(), out);
                observer.rejected(g.cluster, r.team(), r.reason().name());
            } else if (d instanceof Decision.PreemptionNeeded n) {
                onPreemptionNeeded(g, n, out);
            } else if (d instanceof Decision.PreemptionsStopped stop) {
                // the guard behind "Every run ends": the rules make it unreachable, so it is loud when it is not
                LOG.errorf("%s: %s", g.cluster, stop.message());
                observer.preemptionsStopped(g.cluster, stop.team());
            } else {
                LOG.errorf("in-process preemption in delegated mode for %s; ignored", d.workloadId());
            }
        }
    }

    private void onAdmit(Governed g, Decision.Admit a, Outbox out) {
        WorkloadRecord rec = workloads.get(a.workloadId());
        if (rec == null) {
            LOG.errorf("admitted %s, which has no record", a.workloadId());
            return;
        }
        var event = a.toEvent().withClusterArn(g.cluster.orNull());
        WorkloadRecord next = rec.admit(a.admittedAt(), ++state.admissionSeq, event.podSets(), event.borrowed(), "admitted");
        out.emit(topics.admitted(), a.workloadId(), event, WorkloadAdmitted.TYPE, next.eventId());
        writes.persist(next, out);
        observer.admitted(g.cluster, rec.team(), rec.priorityClass(), Duration.between(rec.submittedAt(), a.admittedAt()));
    }

    /** A node under the workload failed and its pods there were placed again: the same admission, a new placement. */
    private void onNodeReplaced(Governed g, Decision.Admit a, Outbox out) {
        WorkloadRecord rec = workloads.get(a.workloadId());
        if (rec == null) {
            LOG.errorf("new placement of %s, which has no record", a.workloadId());
            return;
        }
        var event = a.toEvent().withClusterArn(g.cluster.orNull());
        WorkloadRecord next = rec.replacePlacement(a.admittedAt(), event.podSets(), WorkloadAdmitted.NODE_REPLACED, a.replacedBecause());
        out.emit(topics.admitted(), a.workloadId(), event, WorkloadAdmitted.TYPE, next.eventId());
        writes.persist(next, out);
        observer.clusterChanged(g.cluster, rec.team(), WorkloadAdmitted.NODE_REPLACED);
    }

    /**
     * The scheduler evicted a running workload without a preemptor (its node failed with no
     * replacement, or its team's quota was disabled or deleted): the workload is pending again at
     * once, and the eviction goes to preemption-service (the preempted topic's only writer) on the
     * requests topic, in this transaction, which publishes it on the preempted topic like a
     * preemption. On this decider's partition of that topic, its cluster's, like the requests.
     */
    private void onEvicted(Governed g, Decision.Evict e, Outbox out) {
        WorkloadRecord rec = workloads.get(e.workloadId());
        if (rec == null) {
            LOG.errorf("evicted %s, which has no record", e.workloadId());
            return;
        }
        String message = g.scheduler.workload(e.workloadId()).map(WorkloadView::message).orElse(e.victim().message());
        WorkloadRecord next = rec.moveTo(WorkloadState.Pending, PendingReason.Preempted.name(), message, clock.instant());
        out.emit(topics.preemptionRequested(), e.workloadId(), EvictionDecided.of(e.toEvent().withClusterArn(g.cluster.orNull())),
                EvictionDecided.TYPE, next.eventId());
        writes.persist(next, out);
        observer.clusterChanged(g.cluster, rec.team(), e.victim().reason().name());
    }

    /**
     * Gang admission: the workload's pods were not all ready in time, so it was evicted ({@link #onEvicted}, reason
     * PodsReadyTimeout) and now waits out a backoff. Its record says until when and how many requeues it used, so a
     * decider taking over puts the same backoff back.
     */
    private void onBackoff(Governed g, Decision.StayPending p, Outbox out) {
        WorkloadRecord rec = workloads.get(p.workloadId());
        if (rec == null) return;
        Scheduler.Readiness readiness = g.scheduler.readiness(p.workloadId()).orElse(Scheduler.Readiness.NONE);
        writes.persist(rec.moveTo(WorkloadState.Pending, p.reason().name(), p.message(), clock.instant())
                .withReadiness(false, readiness.requeues(), readiness.backoffUntil()), out);
    }

    private void onPreemptionNeeded(Governed g, Decision.PreemptionNeeded n, Outbox out) {
        WorkloadRecord rec = workloads.get(n.workloadId());
        if (rec == null) return;
        PreemptionRequested request = new PreemptionRequested(rec.workloadId(), rec.team(), n.workload().priority(),
                rec.spec().withSubmittedAt(rec.submittedAt()), n.lackingAmounts(), n.message(), clock.instant(), g.cluster.orNull(),
                n.protectedWorkloads());
        out.emit(topics.preemptionRequested(), rec.workloadId(), request, PreemptionRequested.TYPE,
                rec.eventId() + ":preemption");
        observer.preemptionRequested(g.cluster, rec.team());
    }

    // ------------------------------------------------------------------ helpers

    /**
     * Whether a workload record can be tracked: its value's {@code workloadId} follows the id rule
     * and is the identity, so a key, when present, must be the same id. Otherwise the record goes to
     * the dead letter naming the field and the rule (an id that breaks the rule cannot be stored
     * under or read back by that id, so it is not kept as a Rejected workload).
     */
    private boolean identified(ConsumerRecord<String, byte[]> record, String workloadId, Outbox out) {
        Optional<String> problem = WorkloadIds.problem(workloadId);
        if (problem.isPresent()) {
            deadLetter(out, record, "workloadId: " + problem.get());
            return false;
        }
        if (record.key() != null && !record.key().equals(workloadId)) {
            deadLetter(out, record, "key: the record key '" + abbreviate(record.key()) + "' differs from workloadId '" + workloadId
                    + "'; the value's workloadId is the workload's identity and the key must be absent or equal to it");
            return false;
        }
        return true;
    }

    private static String abbreviate(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "... (" + text.length() + " characters)";
    }

    /** A record that does not translate: dead-lettered with the translator's reason, counted by its kind. */
    private void deadLetter(Outbox out, ConsumerRecord<String, byte[]> record, Translation.Refused<?> refused) {
        deadLetter(out, record, refused.kind() == Translation.Kind.UNREADABLE ? UNREADABLE : DeadLetterMetrics.Reason.INVALID,
                refused.reason());
    }

    private void deadLetter(Outbox out, ConsumerRecord<String, byte[]> record, String reason) {
        deadLetter(out, record, DeadLetterMetrics.Reason.INVALID, reason);
    }

    @Override
    public void refusedAfterFailure(ConsumerRecord<String, byte[]> record, String reason) {
        observer.deadLettered(record.topic(), DeadLetterMetrics.Reason.FAILED);
    }

    @Override
    public void deadLetterWriteFailed(ConsumerRecord<String, byte[]> record, Exception cause) {
        observer.deadLetterWriteFailed(record.topic());
    }

    private void deadLetter(Outbox out, ConsumerRecord<String, byte[]> record, DeadLetterMetrics.Reason category,
                            String reason) {
        if (out == null) {
            LOG.warnf("%s-%d@%d refused while restoring: %s", record.topic(), record.partition(), record.offset(), reason);
            return;
        }
        out.deadLetter(record, reason);
        out.afterCommit(() -> observer.deadLettered(record.topic(), category));
    }
}
