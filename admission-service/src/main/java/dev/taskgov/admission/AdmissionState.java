package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.SchedulerRestore;
import dev.taskgov.core.view.ClusterInputs;
import dev.taskgov.core.view.ClusterInputsByCluster;
import dev.taskgov.service.support.PartitionScope;
import org.jboss.logging.Logger;

import java.io.ByteArrayOutputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * What admission knows about the clusters of one partition (every cluster for a read replica): the workload records,
 * the quota and topology records, one scheduler per cluster, and the {@link Mode} it is in. The decider
 * ({@link AdmissionProcessor}) changes it, the reads ({@link AdmissionReads}) look at it; both under this object's
 * lock, so a read sees the state between two records (possibly one transaction ahead of what is committed).
 */
final class AdmissionState {

    private static final Logger LOG = Logger.getLogger(AdmissionState.class);

    /**
     * What this state is for, and what it can answer. A decider is {@link #BUILDING} from its rebuild (or while it is a
     * warm standby) to its settle, then {@link #DECIDING}; a read replica is {@link #FOLLOWING} its topics until it has
     * read them to their end once, then answers, its schedulers restored for reads only when a record changed them.
     */
    enum Mode {
        /** A decider's state being built: the changelog kept unparsed, no schedulers yet, no reads. */
        BUILDING,
        /** A decider that settled: every cluster has a scheduler (one seen later gets one at once), it answers reads. */
        DECIDING,
        /** A read replica reading its topics, not yet to their end: no reads. */
        FOLLOWING,
        /** A read replica that answers; a record followed since its schedulers were restored made them out of date. */
        ANSWERING_STALE,
        /** A read replica that answers, its schedulers restored from every record followed. */
        ANSWERING;

        /** Answers reads (a decider that settled, a replica that read its topics to the end once). */
        boolean ready() {
            return this == DECIDING || this == ANSWERING_STALE || this == ANSWERING;
        }

        /** A read replica: it never decides, and forgets only when the decider's tombstones say so. */
        boolean replica() {
            return this == FOLLOWING || this == ANSWERING_STALE || this == ANSWERING;
        }

        /** The state was dropped: a decider builds it again, a replica follows its topics again. */
        Mode cleared() {
            return replica() ? FOLLOWING : BUILDING;
        }

        /** A decider's state is complete: it decides. */
        Mode settled() {
            if (replica()) throw new IllegalStateException("a read replica never settles");
            return DECIDING;
        }

        /** A replica followed a record: what it answers must be restored again. */
        Mode followed() {
            if (!replica()) throw new IllegalStateException("a decider follows no topics as a read replica");
            return this == FOLLOWING ? FOLLOWING : ANSWERING_STALE;
        }

        /** A replica read its topics to the end: it answers, restoring its schedulers at the next read. */
        Mode followedToEnd() {
            return ANSWERING_STALE;
        }

        /** A replica restored its schedulers from what it followed. */
        Mode restored() {
            return this == ANSWERING_STALE ? ANSWERING : this;
        }
    }

    /** One cluster's decider state: its quotas as the scheduler has them, its scheduler, whether it must cycle. */
    static final class Governed {
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

    final Clock clock;
    /** The partition (set of clusters) this state is of; {@link PartitionScope#WHOLE} for a replica. */
    final PartitionScope scope;
    private final String changelogTopic;
    final HeldWorkloads workloads = new HeldWorkloads();
    /**
     * Changelog records read while the state is built, the latest per workload id, unparsed until it settles; in
     * replica mode, those followed since the last read, unparsed until a read needs them (the decider beside it
     * has the same records decoded already, and most are replaced before anyone reads them). A replica keeps them
     * deflated: with nobody reading it holds one per workload of every cluster, and a record's JSON deflates to about
     * a third (a queue of 100,000 kept about 100 MB of it otherwise).
     */
    private final Map<String, byte[]> changelog = new HashMap<>();
    /** A replica's compressor, made at its first record; used under this state's lock only. */
    private Deflater deflater;
    /** The buffer {@link #deflate} writes into, made with {@link #deflater}. */
    private byte[] deflateBuffer;
    /** The cluster records read so far, per cluster; the same builder preemption-service uses. */
    final ClusterInputsByCluster inputs = new ClusterInputsByCluster();
    /** One scheduler per cluster: the clusters' quotas, policies, nodes and queues never meet. */
    final Map<ClusterArn, Governed> clusters = new TreeMap<>();
    long admissionSeq;
    /** Gang admission's setting of each cluster, given to each scheduler restored. */
    private WaitForPodsReadyByCluster waitForPodsReady = WaitForPodsReadyByCluster.OFF;
    /** Written under the lock; read without it by readiness checks. */
    private volatile Mode mode;

    AdmissionState(Clock clock, PartitionScope scope, String changelogTopic, Mode initial) {
        this.clock = clock;
        this.scope = scope;
        this.changelogTopic = changelogTopic;
        this.mode = initial;
    }

    Mode mode() {
        return mode;
    }

    void moveTo(Mode next) {
        mode = next;
    }

    /** Sets gang admission's setting of each cluster (off where it says none); before the state is built. */
    void waitForPodsReady(WaitForPodsReadyByCluster setting) {
        this.waitForPodsReady = setting == null ? WaitForPodsReadyByCluster.OFF : setting;
    }

    /**
     * When gang admission next has something to do in {@code cluster} (a readiness deadline, the end of a backoff), by
     * the decider's clock; empty when nothing waits, gang admission is off there, or this state does not decide (a
     * decider still building, a read replica: its schedulers act on no timer).
     */
    Optional<Instant> nextDeadline(ClusterArn cluster) {
        Governed g = clusters.get(cluster);
        return mode != Mode.DECIDING || g == null || g.scheduler == null || !owns(cluster)
                ? Optional.empty() : g.scheduler.nextDeadline();
    }

    /** Whether one of gang admission's timers in {@code g} is reached at {@code now} (only a deciding state has any). */
    boolean deadlineDue(Governed g, Instant now) {
        return nextDeadline(g.cluster).filter(at -> !at.isAfter(now)).isPresent();
    }

    /** Whether one of gang admission's timers in any cluster of this state is reached at {@code now}. */
    boolean deadlineDue(Instant now) {
        return clusters.values().stream().anyMatch(g -> deadlineDue(g, now));
    }

    /** Whether this state decides for {@code cluster}. */
    boolean owns(ClusterArn cluster) {
        return scope.owns(cluster.value());
    }

    /** Drops everything; a decider builds again, a replica follows again. */
    void clear() {
        mode = mode.cleared();
        clusters.clear();
        workloads.clear();
        changelog.clear();
        inputs.clear();
        admissionSeq = 0;
    }

    /** A cluster's state, created on first use; once deciding, with a scheduler restored from its records. */
    Governed cluster(ClusterArn c) {
        Governed g = clusters.get(c);
        if (g == null) {
            g = new Governed(c, inputs.of(c));
            clusters.put(c, g);
            if (mode == Mode.DECIDING) g.scheduler = restoreScheduler(g);
        }
        return g;
    }

    /** Keeps a changelog record unparsed (the latest of its workload); a tombstone ({@code value} null) drops it. */
    void keepUnparsed(String workloadId, byte[] value) {
        if (value == null) changelog.remove(workloadId);
        else changelog.put(workloadId, mode.replica() ? deflate(value) : value);
    }

    /** How many changelog records are kept unparsed. */
    int unparsedCount() {
        return changelog.size();
    }

    /** The bytes the changelog records kept unparsed take. */
    long unparsedBytes() {
        long n = 0;
        for (byte[] b : changelog.values()) n += b.length;
        return n;
    }

    private byte[] deflate(byte[] value) {
        if (deflater == null) {
            deflater = new Deflater(Deflater.BEST_SPEED);
            deflateBuffer = new byte[4096];
        }
        deflater.reset();
        deflater.setInput(value);
        deflater.finish();
        // Into the one buffer this state keeps (grown to the largest record yet), then copied out at its size: a
        // replica deflates every changelog record it follows, and a buffer or two per record was a large share of
        // what admission-service allocated at depth.
        int length = 0;
        while (!deflater.finished()) {
            if (length == deflateBuffer.length) deflateBuffer = Arrays.copyOf(deflateBuffer, 2 * deflateBuffer.length);
            length += deflater.deflate(deflateBuffer, length, deflateBuffer.length - length);
        }
        return Arrays.copyOf(deflateBuffer, length);
    }

    private static byte[] inflate(byte[] deflated) throws DataFormatException {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(deflated);
            ByteArrayOutputStream out = new ByteArrayOutputStream(deflated.length * 3);
            byte[] chunk = new byte[4096];
            while (!inflater.finished()) {
                int n = inflater.inflate(chunk);
                if (n == 0 && (inflater.needsInput() || inflater.needsDictionary())) throw new DataFormatException("truncated record");
                out.write(chunk, 0, n);
            }
            return out.toByteArray();
        } finally {
            inflater.end();
        }
    }

    /**
     * Parses the changelog records kept unparsed into the workload records (a record that does not parse is skipped),
     * and answers those it parsed.
     */
    List<WorkloadRecord> parseChangelog() {
        List<WorkloadRecord> parsed = new ArrayList<>();
        boolean deflated = mode.replica();
        changelog.forEach((id, bytes) -> {
            try {
                WorkloadRecord r = EventCodec.read(deflated ? inflate(bytes) : bytes, WorkloadRecord.class);
                // A changelog split otherwise than the inputs holds other partitions' clusters too.
                if (!owns(r.cluster())) return;
                workloads.put(id, r);
                parsed.add(r);
                admissionSeq = Math.max(admissionSeq, r.admissionSeq());
            } catch (RuntimeException | DataFormatException e) {
                LOG.errorf(e, "changelog record %s does not parse; skipped", id);
            }
        });
        changelog.clear();
        return parsed;
    }

    /** The workload records of this state's clusters from the changelog read so far (as a rebuild reads them). */
    List<WorkloadRecord> restoreWorkloads() {
        List<WorkloadRecord> parsed = parseChangelog();
        LOG.infof("restored %d workload records from %s", workloads.size(), changelogTopic);
        return parsed;
    }

    /** Every known cluster gets its state, each with a scheduler restored from its records. */
    void restoreSchedulers() {
        // The unnamed cluster always exists: a deployment whose records name no cluster decides as before clusters.
        cluster(ClusterArn.UNNAMED);
        workloads.values().forEach(r -> cluster(r.cluster()));
        inputs.all().keySet().forEach(this::cluster);
        for (Governed g : clusters.values()) g.scheduler = restoreScheduler(g);
    }

    /**
     * A scheduler holding one cluster's recorded admissions (in admission order) and pending workloads, with gang
     * admission's state of each (readiness, requeues, backoffs); decides nothing.
     */
    Scheduler restoreScheduler(Governed g) {
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
        return SchedulerRestore.restore(clock, Scheduler.Mode.DELEGATED, g.inputs.instanceTypes().values(), g.inputs.nodes(),
                g.inputs.config(), g.quotas.values(), admitted, pending, retries, waitForPodsReady.of(g.cluster), readiness,
                r -> LOG.errorf("could not restore the admission of %s: %s", r.workloadId(), r.message()));
    }

    /** Quotas depend on instance capacities (Count, ratio defaults): parse again with the current ones. */
    void reparseQuotas(Governed g, Scheduler target) {
        g.inputs.quotas((team, e) -> LOG.infof("quota of %s in %s not usable yet: %s", team, g.cluster, e.getMessage())).values().forEach(q -> {
            if (!q.equals(g.quotas.get(q.team()))) {
                g.quotas.put(q.team(), q);
                if (target != null) target.applyQuota(q);
            }
        });
    }

    /** A recorded workload as its cluster's scheduler restores it: its class's weight now, at its recorded place in the queue. */
    static Workload toWorkload(Governed g, WorkloadRecord r) {
        return r.spec().toWorkload(g.inputs.config(), r.queueTime());
    }

    /**
     * A workload as reads show it: its last version, with the current figures of a pending one when they are not written
     * yet (its cluster's scheduler has them: a change of figures alone is written at most once per refresh, and a
     * workload settled in its parked shape does not even report it, docs/architecture.md, the status topic). A read replica's
     * scheduler runs no cycle: it shows what the decider wrote.
     */
    WorkloadRecord shown(WorkloadRecord rec) {
        if (rec == null || rec.state() != WorkloadState.Pending || mode().replica()) return rec;
        Governed g = clusters.get(rec.cluster());
        if (g == null || g.scheduler == null) return rec;
        return g.scheduler.pendingFigures(rec.workloadId())
                .filter(f -> f.reason().name().equals(rec.reason()) && !f.message().equals(rec.message()))
                .map(f -> rec.showing(f.message()))
                .orElse(rec);
    }
}
