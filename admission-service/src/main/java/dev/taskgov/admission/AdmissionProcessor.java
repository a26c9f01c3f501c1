package dev.taskgov.admission;

import static dev.taskgov.service.support.DeadLetterMetrics.Reason.UNREADABLE;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PreemptionRequested;
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
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.scheduling.ChangeResult;
import dev.taskgov.core.scheduling.Decision;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SubmitResult;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.view.ClusterInputs;
import dev.taskgov.core.view.ClusterInputsByCluster;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * The decider's state, and the thin translation between Kafka records and the core
 * {@link Scheduler} (DELEGATED mode): deserialize, call the core, persist the workload's record to
 * the changelog, emit the decisions. Runs on the loop thread; the read methods used by HTTP take
 * the same lock, so they see the state between two records (possibly one transaction ahead of
 * what is committed).
 */
public final class AdmissionProcessor implements TransactionalLoop.Processor {

    private static final Logger LOG = Logger.getLogger(AdmissionProcessor.class);

    private final DeciderTopics topics;
    private final java.time.Clock clock;
    private final AdmissionObserver observer;
    /** The partition (set of clusters) this processor decides for; {@link PartitionScope#WHOLE} for a replica. */
    private final PartitionScope scope;

    private final Map<String, WorkloadRecord> workloads = new HashMap<>();
    /** How long a workload that ended is kept (described, listed) before it is forgotten. */
    private final FinishedRetention retention;
    /**
     * When each ended workload held is to be forgotten, earliest first (also the order in which they ended), so that a
     * sweep looks at the due ones only and the bound on how many are held forgets the earliest ended first. One entry
     * per ended workload held ({@link #expiryOf}), so that its size is how many are held, and every entry's workload
     * is held: an entry is made as its workload is put ({@link #expireLater}), dropped as it is removed
     * ({@link #forget}) and cleared with it ({@link #clear}); a read replica, whose tombstones remove workloads in
     * {@link #follow}, makes none.
     */
    private final java.util.TreeSet<Expiry> expiries = new java.util.TreeSet<>();
    private final Map<String, Expiry> expiryOf = new HashMap<>();
    /**
     * Changelog records read while the state is built, the latest per workload id, unparsed until it settles; in
     * replica mode, those followed since the last read, unparsed until a read needs them (the decider beside it
     * has the same records decoded already, and most are replaced before anyone reads them).
     */
    private final Map<String, byte[]> changelog = new HashMap<>();
    /** The cluster records read so far, per cluster; the same builder preemption-service uses. */
    private final ClusterInputsByCluster inputs = new ClusterInputsByCluster();
    /** One scheduler per cluster: the clusters' quotas, policies, nodes and queues never meet. */
    private final Map<ClusterArn, Governed> clusters = new TreeMap<>();
    /** Set by {@link #settle}: schedulers exist (a cluster seen later gets one at once). */
    private boolean settled;
    private long admissionSeq;
    /** Replica mode only: records changed since the scheduler was last restored for a read. */
    private boolean replicaStale;
    /** Set by the first {@link #follow}: this processor is a read replica and never decides. */
    private boolean replica;
    private volatile boolean ready;
    /** The record {@link #home} decoded last and its value (null: none); loop thread only. */
    private ConsumerRecord<String, byte[]> routedRecord;
    private Object routedValue;

    /** One cluster's decider state: its quotas as the scheduler has them, its scheduler, whether it must cycle. */
    private static final class Governed {
        final ClusterArn cluster;
        final ClusterInputs inputs;
        /** The quotas the scheduler has, to apply only those a node change altered. */
        final Map<String, TeamQuota> quotas = new TreeMap<>();
        Scheduler scheduler;
        boolean dirty;

        Governed(ClusterArn cluster, ClusterInputs inputs) {
            this.cluster = cluster;
            this.inputs = inputs;
        }
    }

    /** When an ended workload is to be forgotten; ordered by that time, then by id. */
    private record Expiry(Instant at, String workloadId) implements Comparable<Expiry> {
        @Override
        public int compareTo(Expiry o) {
            int byTime = at.compareTo(o.at);
            return byTime != 0 ? byTime : workloadId.compareTo(o.workloadId);
        }
    }

    /** A processor of every cluster (a read replica, or a deployment whose inputs have one partition). */
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
        this.topics = topics;
        this.clock = clock;
        this.observer = observer;
        this.scope = scope;
        this.retention = retention;
        this.auditTopic = auditTopic;
    }

    private final String auditTopic;

    /** The service name of the decider's audit records (their chain). */
    static final String AUDIT_SERVICE = "admission-service";

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

    /** The retention of the configuration's defaults ({@code taskgov.admission.finished-retention} and {@code -max}). */
    public static final FinishedRetention DEFAULT_RETENTION = new FinishedRetention(Duration.parse(FinishedRetention.DEFAULT_PERIOD),
            Integer.parseInt(FinishedRetention.DEFAULT_MAX_ENDED));

    /** Whether this processor decides for {@code cluster}. */
    public boolean owns(ClusterArn cluster) {
        return scope.owns(cluster.value());
    }

    /** Whether this processor decides for the unnamed cluster (a deployment whose records name no cluster). */
    public boolean decidesDefaultCluster() {
        return owns(ClusterArn.UNNAMED);
    }

    /**
     * A workload record is decided by the owner of its cluster's partition: a submission's cluster as admission
     * chooses it (named, or the one governed cluster); a finish or eviction's named cluster, else the one governed
     * cluster, else every partition (only the owner of the workload acts on it). A record that does not parse is
     * refused where it is.
     */
    @Override
    public synchronized int home(ConsumerRecord<String, byte[]> record, int partitions) {
        if (partitions == 1 || record.value() == null) return record.partition();
        try {
            String topic = record.topic();
            if (topic.equals(topics.submitted()) || KafkaAccess.teamOfSubmissionTopic(topics.submitted(), topic) != null) {
                WorkloadSubmitted s = routed(record, EventCodec.read(record.value(), WorkloadSubmitted.class));
                if (s == null) return record.partition();
                WorkloadCluster.Result where = WorkloadCluster.choose(s.clusterArn(), inputs.governed());
                // A refused one is kept under the cluster it names (or the unnamed one, onSubmitted): its record must
                // be on that cluster's changelog partition, or the owner's next rebuild would not restore it.
                ClusterArn kept = where instanceof WorkloadCluster.Chosen c ? c.cluster()
                        : ClusterArn.isValid(s.clusterArn()) ? ClusterArn.of(s.clusterArn()) : ClusterArn.UNNAMED;
                return ClusterPartitions.of(kept.value(), partitions);
            }
            String named = null;
            if (topic.equals(topics.finished())) {
                WorkloadFinished f = routed(record, EventCodec.read(record.value(), WorkloadFinished.class));
                named = f == null ? null : f.clusterArn();
            } else if (isPodsReadyTopic(topic)) {
                WorkloadPodsReady r = routed(record, EventCodec.read(record.value(), WorkloadPodsReady.class));
                named = r == null ? null : r.clusterArn();
            } else if (topic.equals(topics.preempted())) {
                WorkloadPreempted p = routed(record, EventCodec.read(record.value(), WorkloadPreempted.class));
                if (p == null) return record.partition();
                return ClusterPartitions.of(p.cluster().value(), partitions);
            } else {
                return record.partition();
            }
            if (named != null && ClusterArn.isValid(named)) return ClusterPartitions.of(named, partitions);
            if (inputs.governed().size() == 1) return ClusterPartitions.of(inputs.governed().first().value(), partitions);
            return dev.taskgov.service.support.TransactionalLoop.EVERY_PARTITION;
        } catch (RuntimeException e) {
            return record.partition();
        }
    }

    /**
     * Keeps the value {@link #home} decoded for the record the loop applies next ({@link #decode}), so a record applied
     * where it is read is parsed once, not twice.
     */
    private <T> T routed(ConsumerRecord<String, byte[]> record, T value) {
        routedRecord = record;
        routedValue = value;
        return value;
    }

    // ------------------------------------------------------------------ loop callbacks

    /**
     * The whole state comes from the side topics: the changelog partition (the workload records) and the quota and
     * topology topics; the loop reads them, so a warm standby that followed them holds what a rebuild would.
     */
    @Override
    public synchronized void rebuild(Properties clientProps, Duration timeout) {
        clear();
    }

    @Override
    public boolean stateFromSideTopics() {
        return true;
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
    public synchronized void restoreSide(ConsumerRecord<String, byte[]> record) {
        if (record.topic().equals(topics.changelog())) {
            if (record.key() == null) return;
            if (record.value() == null) changelog.remove(record.key());
            else changelog.put(record.key(), record.value());
        } else if (record.topic().equals(topics.quota())) {
            readQuotaRecord(record, null);
        } else if (record.topic().equals(topics.topology())) {
            readNodeRecord(record, null);
        }
    }

    /** The workload records of this processor's clusters from the changelog read so far (as a rebuild reads them). */
    private void restoreWorkloads() {
        parseChangelog();
        LOG.infof("restored %d workload records from %s", workloads.size(), topics.changelog());
    }

    /** Parses the changelog records kept unparsed into the workload records (a record that does not parse is skipped). */
    private void parseChangelog() {
        changelog.forEach((id, bytes) -> {
            try {
                WorkloadRecord r = EventCodec.read(bytes, WorkloadRecord.class);
                // A changelog split otherwise than the inputs holds other partitions' clusters too.
                if (!owns(r.cluster())) return;
                workloads.put(id, r);
                // A replica forgets when the decider's tombstone arrives; it keeps no expiries of its own.
                if (!replica) expireLater(r);
                admissionSeq = Math.max(admissionSeq, r.admissionSeq());
            } catch (RuntimeException e) {
                LOG.errorf(e, "changelog record %s does not parse; skipped", id);
            }
        });
        changelog.clear();
    }

    @Override
    public synchronized void settle(Outbox out) {
        restoreWorkloads();
        // The unnamed cluster always exists: a deployment whose records name no cluster decides as before clusters.
        cluster(ClusterArn.UNNAMED);
        workloads.values().forEach(r -> cluster(r.cluster()));
        inputs.all().keySet().forEach(this::cluster);
        settled = true;
        for (Governed g : clusters.values()) g.scheduler = restoreScheduler(g);
        ready = true;
        // What ended long enough ago while no one decided (the previous owner stopped) is forgotten now.
        forgetExpired(out);
        for (Governed g : clusters.values()) cycle(g, out);
        observer.stateChanged(this);
    }

    /** A cluster's state, created on first use; after {@link #settle} with a scheduler restored from its records. */
    private Governed cluster(ClusterArn c) {
        Governed g = clusters.get(c);
        if (g == null) {
            g = new Governed(c, inputs.of(c));
            clusters.put(c, g);
            if (settled) g.scheduler = restoreScheduler(g);
        }
        return g;
    }

    /** A scheduler holding one cluster's recorded admissions (in admission order) and pending workloads; decides nothing. */
    private Scheduler restoreScheduler(Governed g) {
        reparseQuotas(g, null);
        List<SchedulerRestore.Admitted> admitted = new ArrayList<>();
        List<Workload> pending = new ArrayList<>();
        Map<String, Integer> retries = new TreeMap<>();
        workloads.values().stream()
                .filter(r -> r.state() == WorkloadState.Admitted && r.cluster().equals(g.cluster))
                .sorted(Comparator.comparingLong(WorkloadRecord::admissionSeq))
                .forEach(r -> admitted.add(new SchedulerRestore.Admitted(toWorkload(g, r), r.placement(), r.borrowed(), r.admittedAt())));
        workloads.values().stream()
                .filter(r -> r.state() == WorkloadState.Pending && r.cluster().equals(g.cluster))
                .sorted(Comparator.comparing(WorkloadRecord::queueTime).thenComparing(WorkloadRecord::workloadId))
                .forEach(r -> pending.add(toWorkload(g, r)));
        workloads.values().stream().filter(r -> r.retries() > 0 && r.cluster().equals(g.cluster))
                .forEach(r -> retries.put(r.workloadId(), r.retries()));
        Map<String, Scheduler.Readiness> readiness = new TreeMap<>();
        workloads.values().stream().filter(r -> r.cluster().equals(g.cluster)
                        && (r.podsReady() || r.readinessRequeues() > 0 || r.backoffUntil() != null))
                .forEach(r -> readiness.put(r.workloadId(), new Scheduler.Readiness(r.podsReady(), r.readinessRequeues(), r.backoffUntil())));
        return SchedulerRestore.restore(clock, g.inputs.instanceTypes().values(), g.inputs.nodes(), g.inputs.config(),
                g.quotas.values(), admitted, pending, retries, waitForPodsReady.of(g.cluster), readiness);
    }

    // ------------------------------------------------------------------ read replica (AdmissionReplica)

    /**
     * Replica mode: applies one committed record of the changelog, quota or topology topic to this view and
     * decides nothing. A changelog record is kept unparsed (the latest per workload) until a read needs the
     * workloads ({@link #followedWorkloads}); the scheduler that queue order and dry runs need is rebuilt on the
     * next such read.
     */
    public synchronized void follow(ConsumerRecord<String, byte[]> record) {
        if (record.topic().equals(topics.changelog()) && record.value() == null && record.key() != null) {
            workloads.remove(record.key());
        }
        restoreSide(record);
        replica = true;
        replicaStale = true;
    }

    /** Replica mode: the view has read its topics to the end once; from now on it answers reads. */
    public synchronized void followedToEnd() {
        replicaStale = true;
        ready = true;
    }

    /** Replica mode: the view is dropped (its topics are read again from the beginning). */
    public synchronized void unfollow() {
        clear();
        replicaStale = false;
    }

    /** Replica mode: parses the changelog records followed since the last read, before a read of the workloads. */
    private void followedWorkloads() {
        if (replica) parseChangelog();
    }

    /** A cluster's scheduler for reads: a replica restores them from its records when they changed since the last read. */
    private Optional<Scheduler> readScheduler(ClusterArn c) {
        followedWorkloads();
        if (replicaStale) {
            cluster(ClusterArn.UNNAMED);
            workloads.values().forEach(r -> cluster(r.cluster()));
            inputs.all().keySet().forEach(this::cluster);
            for (Governed g : clusters.values()) g.scheduler = restoreScheduler(g);
            replicaStale = false;
        }
        Governed g = clusters.get(c);
        return g == null ? Optional.empty() : Optional.ofNullable(g.scheduler);
    }

    @Override
    public synchronized void apply(ConsumerRecord<String, byte[]> record, Outbox out) {
        String topic = record.topic();
        String submittingTeam = KafkaAccess.teamOfSubmissionTopic(topics.submitted(), topic);
        if (topic.equals(topics.submitted())) onSubmitted(record, null, out);
        else if (submittingTeam != null) onSubmitted(record, submittingTeam, out);
        else if (topic.equals(topics.finished())) onFinished(record, out);
        else if (isPodsReadyTopic(topic)) onPodsReady(record, KafkaAccess.teamOfPodsReadyTopic(topics.podsReady(), topic), out);
        else if (topic.equals(topics.preempted())) onPreempted(record, out);
        else if (topic.equals(topics.quota())) readQuotaRecord(record, out);
        else if (topic.equals(topics.topology())) readNodeRecord(record, out);
        else if (!topic.equals(topics.changelog())) deadLetter(out, record, "unexpected topic " + topic);
    }

    @Override
    public synchronized void afterBatch(Outbox out) {
        forgetExpired(out);
        writeDueFigures(out);
        Instant now = clock.instant();
        for (Governed g : clusters.values()) {
            boolean timersDue = deadlineDue(g, now);
            if (g.dirty || timersDue) cycle(g, out);
            if (timersDue) out.afterCommit(() -> observer.deadlinesReached(g.cluster, now));
        }
        observer.stateChanged(this);
    }

    /**
     * Time alone made work due: an ended workload's retention elapsed (forgotten), or one of gang admission's timers
     * (a readiness deadline, the end of a backoff) is reached; done without waiting for the next record
     * ({@link #afterBatch}), in a transaction of its own, as every other decision.
     */
    @Override
    public synchronized boolean dueWhileIdle(Instant now) {
        if (!ready) return false;
        if (!expiries.isEmpty() && !expiries.first().at().isAfter(now)
                || !figuresDue.isEmpty() && !figuresDue.first().at().isAfter(now)) return true;
        for (Governed g : clusters.values()) if (deadlineDue(g, now)) return true;
        return false;
    }

    /** Whether one of gang admission's timers in a cluster this processor decides for is reached at {@code now}. */
    private boolean deadlineDue(Governed g, Instant now) {
        return g.scheduler != null && !replica && owns(g.cluster)
                && g.scheduler.nextDeadline().filter(at -> !at.isAfter(now)).isPresent();
    }

    /**
     * When gang admission next has something to do in {@code cluster} (a readiness deadline, the end of a backoff), by
     * the decider's clock; empty when nothing waits (or gang admission is off there).
     */
    public synchronized Optional<Instant> nextDeadline(ClusterArn cluster) {
        Governed g = clusters.get(cluster);
        return g == null || g.scheduler == null || replica ? Optional.empty() : g.scheduler.nextDeadline();
    }

    @Override
    public synchronized void revoked() {
        clear();
    }

    private void clear() {
        ready = false;
        settled = false;
        clusters.clear();
        workloads.clear();
        expiries.clear();
        heldFigures.clear();
        figuresDue.clear();
        expiryOf.clear();
        changelog.clear();
        inputs.clear();
        admissionSeq = 0;
    }

    // ------------------------------------------------------------------ inputs

    /**
     * @param topicTeam the team whose own submission topic carried the record (only that team's principal may
     *                  write it: the broker's ACLs), or null for the shared topic that only trusted services write
     */
    private void onSubmitted(ConsumerRecord<String, byte[]> record, String topicTeam, Outbox out) {
        WorkloadSubmitted s = decode(record, WorkloadSubmitted.class, out);
        if (s == null || !identified(record, s.workloadId(), out)) return;
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
        WorkloadCluster.Result where = WorkloadCluster.choose(s.clusterArn(), inputs.governed());
        if (where instanceof WorkloadCluster.Refused refused) {
            // Kept under the cluster it named (or none): it is in no cluster's queue.
            persist(WorkloadRecord.first(s.clusterArn() == null || ClusterArn.isValid(s.clusterArn()) ? s : s.withClusterArn(null),
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
            persistQueued(WorkloadRecord.first(s.withSubmittedAt(w.submittedAt()), w.team(), w.priorityClass(), w.priority(),
                    w.submittedAt(), WorkloadState.Pending, PendingReason.Queued.name(),
                    "queued: looked at when it reaches the head of its team's queue (the head goes first, also while it waits for a preemption)", now), out);
            g.dirty = true;
            audit(out, record, "SubmitWorkload", target, AuditEvent.ALLOWED);
        } else if (result instanceof SubmitResult.Rejected r) {
            Decision.Reject d = r.decision();
            persist(WorkloadRecord.first(s, team, null, 0, s.submittedAt() == null ? now : s.submittedAt(),
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

    private void onFinished(ConsumerRecord<String, byte[]> record, Outbox out) {
        WorkloadFinished f = decode(record, WorkloadFinished.class, out);
        if (f == null || !identified(record, f.workloadId(), out)) return;
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
            persist(rec.retryAfterFailure(PendingReason.RetryAfterFailure.name(), change.message(),
                    g.scheduler.workload(f.workloadId()).orElseThrow().submittedAt()), out);
            g.dirty = true;
            audit(out, record, operation, target, AuditEvent.ALLOWED + " (" + f.outcome() + "): " + change.message());
            return;
        }
        String outcome = f.outcome() == null ? null : f.outcome().name();
        persist(rec.moveTo(WorkloadState.Finished, outcome, change.message(), clock.instant()), out);
        observer.finished(g.cluster, rec.team());
        g.dirty = true;
        audit(out, record, operation, target, AuditEvent.ALLOWED + " (" + outcome + ")");
    }

    private boolean isPodsReadyTopic(String topic) {
        return topic.equals(topics.podsReady()) || KafkaAccess.teamOfPodsReadyTopic(topics.podsReady(), topic) != null;
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
    private void onPodsReady(ConsumerRecord<String, byte[]> record, String topicTeam, Outbox out) {
        WorkloadPodsReady r = decode(record, WorkloadPodsReady.class, out);
        if (r == null || !identified(record, r.workloadId(), out)) return;
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
        persist(rec.moveTo(WorkloadState.Admitted, PODS_READY, "admitted; every pod is ready", clock.instant())
                .withReadiness(true, rec.readinessRequeues(), null), out);
        g.dirty = true;
        audit(out, record, operation, target, AuditEvent.ALLOWED);
    }

    /** The reason of an admitted workload whose pods were all reported ready (gang admission). */
    static final String PODS_READY = "PodsReady";

    private void onPreempted(ConsumerRecord<String, byte[]> record, Outbox out) {
        WorkloadPreempted p = decode(record, WorkloadPreempted.class, out);
        if (p == null || !identified(record, p.workloadId(), out)) return;
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
        persist(rec.moveTo(WorkloadState.Pending, PendingReason.Preempted.name(), change.message(), clock.instant()), out);
        g.dirty = true;
    }

    /**
     * Quota records: key = {@code <ClusterArn>#<team>} (null value = deleted) or {@code <ClusterArn>#_scheduler-config};
     * bare keys belong to the unnamed cluster. A record changes only its own cluster.
     */
    private void readQuotaRecord(ConsumerRecord<String, byte[]> record, Outbox out) {
        ClusterScopedKey key;
        try {
            key = ClusterScopedKey.parse(record.key());
        } catch (IllegalArgumentException e) {
            deadLetter(out, record, e.getMessage() + " (on " + record.topic() + ": <ClusterArn>#<team> or <ClusterArn>#"
                    + ClusterScopedKey.SCHEDULER_CONFIG + ")");
            return;
        }
        if (key.isDeclaration()) {
            deadLetter(out, record, "key: '" + key + "' names a cluster but no team; a quota is keyed <ClusterArn>#<team>");
            return;
        }
        Governed g = cluster(key.cluster());
        if (key.isSchedulerConfig()) {
            SchedulerConfig c;
            try {
                c = record.value() == null ? SchedulerConfig.DEFAULT : SchedulerConfig.fromRequest(EventCodec.tree(record.value()));
            } catch (ValidationException | EventCodec.EventFormatException e) {
                deadLetter(out, record, "scheduler config: " + e.getMessage());
                return;
            }
            g.inputs.setConfig(c);
            if (g.scheduler != null) g.scheduler.applySchedulerConfig(c);
            g.dirty = true;
            return;
        }
        String team = key.name();
        if (record.value() == null) {
            g.inputs.removeQuota(team);
            if (g.quotas.remove(team) != null && g.scheduler != null) g.scheduler.removeQuota(team);
            g.dirty = true;
            return;
        }
        JsonNode json;
        try {
            json = EventCodec.tree(record.value());
        } catch (EventCodec.EventFormatException e) {
            deadLetter(out, record, "unparseable quota JSON: " + e.getMessage());
            return;
        }
        g.inputs.putQuota(team, json);
        if (g.scheduler == null) return; // parsed at settle time, when every node is known
        try {
            TeamQuota q = g.inputs.quota(team);
            g.quotas.put(q.team(), q);
            g.scheduler.applyQuota(q);
            g.dirty = true;
        } catch (ValidationException e) {
            if (ClusterInputs.waitsForTopology(e)) {
                LOG.infof("quota of %s waits for its instance types to appear in the topology: %s", key, e.getMessage());
            } else {
                deadLetter(out, record, "quota: " + e.getMessage());
            }
        }
    }

    /**
     * Topology records: key = {@code <ClusterArn>#<node>} (bare: the unnamed cluster), null value = node gone;
     * key = {@code <ClusterArn>}: the cluster's declaration (null value: no longer governed).
     */
    private void readNodeRecord(ConsumerRecord<String, byte[]> record, Outbox out) {
        ClusterScopedKey key;
        try {
            key = ClusterScopedKey.parse(record.key());
        } catch (IllegalArgumentException e) {
            deadLetter(out, record, e.getMessage() + " (on " + record.topic() + ": <ClusterArn>#<node name>, or <ClusterArn> for a cluster)");
            return;
        }
        if (key.isDeclaration()) {
            if (record.value() == null) {
                inputs.undeclare(key.cluster());
                return;
            }
            ClusterDeclared d = decode(record, ClusterDeclared.class, out);
            if (d == null) return;
            if (d.clusterArn() != null && !d.clusterArn().equals(key.cluster().value())) {
                deadLetter(out, record, "clusterArn: the declaration names " + d.clusterArn() + " under the key " + key);
                return;
            }
            inputs.declare(key.cluster());
            cluster(key.cluster());
            return;
        }
        Governed g = cluster(key.cluster());
        if (record.value() == null) {
            g.inputs.removeNode(key.name());
            if (g.scheduler != null) g.scheduler.removeNode(key.name());
            g.dirty = true;
            return;
        }
        NodeRecord n = decode(record, NodeRecord.class, out);
        if (n == null) return;
        if (!n.violations().isEmpty()) {
            deadLetter(out, record, String.join("; ", n.violations().stream().map(Object::toString).toList()));
            return;
        }
        Optional<String> misplaced = ClusterInputsByCluster.nodeKeyProblem(key, n);
        if (misplaced.isPresent()) {
            deadLetter(out, record, misplaced.get());
            return;
        }
        try {
            if (n.allocatable() != null) n.allocatable().toResources();
        } catch (IllegalArgumentException e) {
            deadLetter(out, record, "allocatable: " + e.getMessage());
            return;
        }
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
        g.inputs.quotas((team, e) -> LOG.infof("quota of %s in %s not usable yet: %s", team, g.cluster, e.getMessage())).values().forEach(q -> {
            if (!q.equals(g.quotas.get(q.team()))) {
                g.quotas.put(q.team(), q);
                if (target != null) target.applyQuota(q);
            }
        });
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
                update(p.workloadId(), WorkloadState.Pending, p.reason().name(), p.message(), out);
            } else if (d instanceof Decision.Reject r) {
                update(r.workloadId(), WorkloadState.Rejected, r.reason().name(), r.message(), out);
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
        WorkloadRecord next = rec.admit(a.admittedAt(), ++admissionSeq, event.podSets(), event.borrowed(), "admitted");
        out.emit(topics.admitted(), a.workloadId(), event, WorkloadAdmitted.TYPE, next.eventId());
        persist(next, out);
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
        persist(next, out);
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
        persist(next, out);
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
        persist(rec.moveTo(WorkloadState.Pending, p.reason().name(), p.message(), clock.instant())
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

    /**
     * A workload's new state, reason and message. A new state or reason is written at once; new figures alone (what a
     * pending workload lacks, with the same reason) at most once per {@link #statusRefresh} per workload: within it the
     * latest are held ({@link #heldFigures}) and written when it has passed ({@link #writeDueFigures}), while reads
     * show them at once ({@link #workload}). A waiting workload's figures change with every admission around it; written
     * each time they were most of the status topic.
     */
    private void update(String id, WorkloadState state, String reason, String message, Outbox out) {
        WorkloadRecord rec = workloads.get(id);
        if (rec == null) return;
        if (!rec.differs(state, reason, message)) {
            dropHeldFigures(id);
            return;
        }
        Instant now = clock.instant();
        boolean figuresOnly = rec.state() == state && java.util.Objects.equals(rec.reason(), reason);
        if (figuresOnly && !statusRefresh.isZero()) {
            Instant due = rec.writtenAt().plus(statusRefresh);
            if (now.isBefore(due)) {
                HeldFigures before = heldFigures.put(id, new HeldFigures(message, due));
                if (before != null) figuresDue.remove(new Expiry(before.due(), id));
                figuresDue.add(new Expiry(due, id));
                return;
            }
        }
        dropHeldFigures(id);
        persist(rec.moveTo(state, reason, message, now), out);
    }

    /** The latest figures of a workload not yet written, and when they may be. */
    private record HeldFigures(String message, Instant due) {
    }

    /** How often a workload's figures alone may be written (taskgov.admission.status-refresh); zero: every change. */
    private Duration statusRefresh = DEFAULT_STATUS_REFRESH;
    public static final Duration DEFAULT_STATUS_REFRESH = Duration.ofSeconds(10);
    private final Map<String, HeldFigures> heldFigures = new HashMap<>();
    private final java.util.TreeSet<Expiry> figuresDue = new java.util.TreeSet<>();

    /** Sets how often a workload's figures alone may be written (zero: every change at once). */
    public AdmissionProcessor statusRefresh(Duration refresh) {
        this.statusRefresh = refresh == null || refresh.isNegative() ? Duration.ZERO : refresh;
        return this;
    }

    /** Gang admission's setting of each cluster, asked when a cluster's scheduler is built. */
    private WaitForPodsReadyByCluster waitForPodsReady = WaitForPodsReadyByCluster.OFF;

    /** Sets gang admission's setting of each cluster (docs/semantics.md, "Gang admission"); before the state is built. */
    public AdmissionProcessor waitForPodsReady(WaitForPodsReadyByCluster setting) {
        this.waitForPodsReady = setting == null ? WaitForPodsReadyByCluster.OFF : setting;
        return this;
    }

    private void dropHeldFigures(String id) {
        HeldFigures held = heldFigures.remove(id);
        if (held != null) figuresDue.remove(new Expiry(held.due(), id));
    }

    /** Writes the held figures whose refresh has passed, each as its workload's next version. */
    private void writeDueFigures(Outbox out) {
        Instant now = clock.instant();
        while (!figuresDue.isEmpty() && !figuresDue.first().at().isAfter(now)) {
            Expiry due = figuresDue.pollFirst();
            HeldFigures held = heldFigures.remove(due.workloadId());
            WorkloadRecord rec = workloads.get(due.workloadId());
            if (held == null || rec == null || !rec.differs(rec.state(), rec.reason(), held.message())) continue;
            persist(rec.moveTo(rec.state(), rec.reason(), held.message(), now), out);
        }
    }

    /** The record goes to the changelog and its status to the status topic, in the current transaction. */
    private void persist(WorkloadRecord rec, Outbox out) {
        dropHeldFigures(rec.workloadId()); // a new version says what the held figures would have
        workloads.put(rec.workloadId(), rec);
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
    private void persistQueued(WorkloadRecord rec, Outbox out) {
        dropHeldFigures(rec.workloadId());
        workloads.put(rec.workloadId(), rec);
        expireLater(rec);
        out.emitLatest(topics.changelog(), rec.workloadId(), rec, AdmissionEvents.CHANGELOG, rec.eventId());
        out.emitLatest(topics.status(), rec.workloadId(), status(rec), WorkloadStatus.TYPE, rec.eventId());
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
    private void forgetExpired(Outbox out) {
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
        Governed g = clusters.get(rec.cluster());
        String how = g == null || g.scheduler == null ? "its cluster has no scheduler" : g.scheduler.forget(rec.workloadId()).message();
        workloads.remove(rec.workloadId());
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
    private void expireLater(WorkloadRecord rec) {
        Expiry before = expiryOf.remove(rec.workloadId());
        if (before != null) expiries.remove(before);
        retention.forgetAt(rec.state(), rec.since()).ifPresent(at -> {
            Expiry e = new Expiry(at, rec.workloadId());
            expiries.add(e);
            expiryOf.put(rec.workloadId(), e);
        });
    }

    // ------------------------------------------------------------------ helpers

    private <T> T decode(ConsumerRecord<String, byte[]> record, Class<T> type, Outbox out) {
        Object routed = routedValue;
        boolean decodedByHome = routedRecord == record;
        routedRecord = null;
        routedValue = null;
        if (decodedByHome && type.isInstance(routed)) return type.cast(routed);
        if (record.value() == null) {
            deadLetter(out, record, UNREADABLE, "the record has no value (a tombstone is not a " + type.getSimpleName() + ")");
            return null;
        }
        try {
            T value = EventCodec.read(record.value(), type);
            if (value == null) deadLetter(out, record, UNREADABLE, "the value is JSON null, not a " + type.getSimpleName());
            return value;
        } catch (EventCodec.EventFormatException e) {
            deadLetter(out, record, UNREADABLE, "unreadable " + type.getSimpleName() + ": " + e.getMessage());
            return null;
        }
    }

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

    /** A recorded workload as its cluster's scheduler restores it: its class's weight now, at its recorded place in the queue. */
    private Workload toWorkload(Governed g, WorkloadRecord r) {
        return r.spec().toWorkload(g.inputs.config(), r.queueTime());
    }

    // ------------------------------------------------------------------ reads (HTTP, metrics)

    /** True while this instance decides and its state is rebuilt (replica mode: once read to the end). */
    public boolean isReady() {
        return ready;
    }

    /** A workload as it is now: its last version, showing figures not yet written ({@link #update}). */
    public synchronized Optional<WorkloadRecord> workload(String id) {
        followedWorkloads();
        WorkloadRecord rec = workloads.get(id);
        HeldFigures held = rec == null ? null : heldFigures.get(id);
        return Optional.ofNullable(held == null ? rec : rec.showing(held.message()));
    }

    /** Records filtered by cluster, team and state (null = any), by id. */
    public synchronized List<WorkloadRecord> workloads(ClusterArn cluster, String team, WorkloadState state) {
        followedWorkloads();
        return workloads.values().stream()
                .filter(r -> cluster == null || cluster.equals(r.cluster()))
                .filter(r -> team == null || team.equals(r.team()))
                .filter(r -> state == null || state == r.state())
                .sorted(Comparator.comparing(WorkloadRecord::workloadId))
                .map(r -> {
                    HeldFigures held = heldFigures.get(r.workloadId());
                    return held == null ? r : r.showing(held.message());
                })
                .toList();
    }

    /** A team's pending workloads in queue order, in one cluster. */
    public synchronized List<WorkloadView> queue(ClusterArn cluster, String team) {
        Optional<Scheduler> s = readScheduler(cluster);
        if (s.isEmpty()) return List.of();
        if (!replica) return s.get().queue(team);
        // A restored scheduler has not run a cycle: why each one waits is what the decider recorded.
        return s.get().queue(team).stream().map(v -> {
            WorkloadRecord r = workloads.get(v.workloadId());
            return r == null ? v : new WorkloadView(v.workloadId(), v.team(), v.state(), r.reason(), r.message(),
                    v.priority(), v.submittedAt(), v.admittedAt(), v.placement(), v.borrowed());
        }).toList();
    }

    /** The cluster a submission would run in, or why it would be refused ({@link WorkloadCluster}). */
    public synchronized WorkloadCluster.Result clusterOf(WorkloadSubmitted submission) {
        return WorkloadCluster.choose(submission.clusterArn(), inputs.governed());
    }

    /** A dry run in the cluster the submission names (or the only one); an unknown cluster is an error. */
    public synchronized DryRunResult dryRun(WorkloadSubmitted submission) {
        WorkloadCluster.Result where = clusterOf(submission);
        if (where instanceof WorkloadCluster.Refused r) throw new ValidationException(r.violation().field(), r.violation().rule());
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        return schedulerFor(c).dryRun(submission.withClusterArn(c.orNull()));
    }

    /** Validates against the cluster's nodes, quotas and priority classes (and that the cluster is governed). */
    public synchronized WorkloadValidation.Result validate(WorkloadSubmitted submission) {
        WorkloadCluster.Result where = clusterOf(submission);
        if (where instanceof WorkloadCluster.Refused r) {
            return new WorkloadValidation.Invalid(RejectReason.UnknownCluster, List.of(r.violation()));
        }
        ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
        return WorkloadValidation.validate(submission, schedulerFor(c).validationContext(), clock.instant());
    }

    /** A governed cluster's scheduler for a read, restored from its records when it has none yet. */
    private Scheduler schedulerFor(ClusterArn c) {
        return readScheduler(c).orElseGet(() -> {
            Governed g = cluster(c);
            if (g.scheduler == null) g.scheduler = restoreScheduler(g);
            return g.scheduler;
        });
    }

    /**
     * The workloads the gauges count, in one pass: pending ones per cluster, team and reason, and admitted
     * (running) ones per cluster and team (Kueue's {@code kueue_admitted_active_workloads}).
     */
    public synchronized WorkloadCounts workloadCounts() {
        Map<ClusterArn, Map<String, Map<String, Long>>> pending = new TreeMap<>();
        Map<ClusterArn, Map<String, Long>> admitted = new TreeMap<>();
        followedWorkloads();
        for (WorkloadRecord r : workloads.values()) {
            if (!owns(r.cluster())) continue;
            if (r.state() == WorkloadState.Pending) {
                pending.computeIfAbsent(r.cluster(), c -> new TreeMap<>()).computeIfAbsent(r.team(), t -> new TreeMap<>())
                        .merge(r.reason() == null ? "" : r.reason(), 1L, Long::sum);
            } else if (r.state() == WorkloadState.Admitted) {
                admitted.computeIfAbsent(r.cluster(), c -> new TreeMap<>()).merge(r.team(), 1L, Long::sum);
            }
        }
        return new WorkloadCounts(pending, admitted);
    }

    /** @see #workloadCounts() */
    public record WorkloadCounts(Map<ClusterArn, Map<String, Map<String, Long>>> pendingByTeamAndReason,
                                 Map<ClusterArn, Map<String, Long>> admittedByTeam) {
    }

    /**
     * Runs a read against the scheduler (ledger and config) of each cluster this processor decides for, under the
     * lock (metrics); nothing when not deciding. (It knows every cluster's quotas and nodes, and decides for its
     * partition's.)
     */
    public synchronized void forEachScheduler(java.util.function.BiConsumer<ClusterArn, Scheduler> read) {
        clusters.forEach((c, g) -> {
            if (g.scheduler != null && owns(c)) read.accept(c, g.scheduler);
        });
    }

    /** Teams with a quota, in one cluster. */
    public synchronized List<TeamQuota> quotas(ClusterArn cluster) {
        Governed g = clusters.get(cluster);
        return g == null ? List.of() : List.copyOf(g.quotas.values());
    }

    /** The clusters the deployment governs (declared on the topology topic, or with nodes). */
    public synchronized java.util.SortedSet<ClusterArn> governed() {
        return inputs.governed();
    }

    /** One cluster's summary for {@code GET /clusters}: nodes, capacity, quotas and use; empty when unknown. */
    public synchronized Optional<ClusterSummary> summary(ClusterArn cluster) {
        if (!inputs.governed().contains(cluster)) return Optional.empty();
        Optional<Scheduler> s = readScheduler(cluster); // parses the followed workloads too
        ClusterInputs in = inputs.of(cluster);
        Map<String, Long> byState = new TreeMap<>();
        workloads.values().stream().filter(r -> r.cluster().equals(cluster))
                .forEach(r -> byState.merge(r.state().name(), 1L, Long::sum));
        return Optional.of(ClusterSummary.of(cluster, in.nodes(), s.map(Scheduler::ledger).orElse(null),
                in.config(), byState));
    }

    /**
     * One cluster's teams for {@code GET /teams}: the quota figures of each team with a quota ({@link TeamUsage}, the
     * ledger the gauges read) and the pending workloads by reason of every team, also one without a quota.
     */
    public synchronized TeamsInCluster teams(ClusterArn cluster) {
        List<TeamUsage> usage = readScheduler(cluster).map(s -> TeamUsage.of(s.ledger())).orElse(List.of());
        Map<String, Map<String, Long>> pending = workloadCounts().pendingByTeamAndReason().getOrDefault(cluster, Map.of());
        return new TeamsInCluster(usage, pending);
    }

    /** @see #teams(ClusterArn) */
    public record TeamsInCluster(List<TeamUsage> usage, Map<String, Map<String, Long>> pendingByTeamAndReason) {
    }

    static Map<String, ResourceAmounts> amounts(Map<String, Resources> byType) {
        Map<String, ResourceAmounts> out = new TreeMap<>();
        byType.forEach((t, r) -> {
            if (!r.isZero()) out.put(t, ResourceAmounts.of(r));
        });
        return out;
    }
}
