package dev.taskgov.admission;

import dev.taskgov.admission.AdmissionState.Governed;
import dev.taskgov.admission.AdmissionState.Mode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.view.ClusterInputs;
import org.apache.kafka.clients.consumer.ConsumerRecord;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.stream.Stream;

/**
 * The read side of admission's state (HTTP reads, the gauges), of a decider's partition or of the read replica, which
 * is fed here too ({@link #follow}, {@link #followedToEnd}, {@link #unfollow}) and never decides. Every read takes the
 * state's lock, so it sees the state between two records.
 */
public final class AdmissionReads implements WorkloadReads {

    private final AdmissionState state;
    /** The processor this is the read side of: a replica's records are applied to the state as a rebuild applies them. */
    private final AdmissionProcessor processor;

    /** Estimated starts of pending workloads: one forecast per cluster and state, run outside the state's lock. */
    private final StartEstimates startEstimates;

    AdmissionReads(AdmissionState state, AdmissionProcessor processor) {
        this.state = state;
        this.processor = processor;
        this.startEstimates = new StartEstimates(state.clock, StartEstimates.DEFAULT_REFRESH);
    }

    /** True while this state answers: a decider whose state is rebuilt, a replica once it read its topics to the end. */
    public boolean isReady() {
        return state.mode().ready();
    }

    /** Whether this state decides (or, for a replica, holds the state) for {@code cluster}. */
    public boolean owns(ClusterArn cluster) {
        return state.owns(cluster);
    }

    // ------------------------------------------------------------------ read replica (AdmissionReplica)

    /**
     * Applies one committed record of the changelog, quota or topology topic to this replica and decides nothing. A
     * changelog record is kept unparsed (the latest per workload) until a read needs the workloads; the schedulers
     * that queue order and dry runs need are restored on the next such read.
     */
    public void follow(ConsumerRecord<String, byte[]> record) {
        synchronized (state) {
            if (record.topic().equals(processor.topics().changelog()) && record.value() == null && record.key() != null) {
                state.workloads.remove(record.key());
            }
            processor.restore(record);
            state.moveTo(state.mode().followed());
        }
    }

    /** The replica has read its topics to the end once; from now on it answers reads. */
    public void followedToEnd() {
        synchronized (state) {
            state.moveTo(state.mode().followedToEnd());
        }
    }

    /** The replica's state is dropped (its topics are read again from the beginning). */
    public void unfollow() {
        synchronized (state) {
            processor.clear();
        }
    }

    /** A replica parses the changelog records followed since the last read, before a read of the workloads. */
    private void followedWorkloads() {
        if (state.mode().replica()) state.parseChangelog();
    }

    /** A cluster's scheduler for reads: a replica restores them from its records when they changed since the last read. */
    private Optional<Scheduler> readScheduler(ClusterArn c) {
        followedWorkloads();
        if (state.mode() == Mode.ANSWERING_STALE) {
            state.restoreSchedulers();
            state.moveTo(state.mode().restored());
        }
        Governed g = state.clusters.get(c);
        return g == null ? Optional.empty() : Optional.ofNullable(g.scheduler);
    }

    /** A governed cluster's scheduler for a read, restored from its records when it has none yet. */
    private Scheduler schedulerFor(ClusterArn c) {
        return readScheduler(c).orElseGet(() -> {
            Governed g = state.cluster(c);
            if (g.scheduler == null) g.scheduler = state.restoreScheduler(g);
            return g.scheduler;
        });
    }

    // ------------------------------------------------------------------ reads (HTTP, metrics)

    @Override
    public Optional<WorkloadRecord> workload(String id) {
        synchronized (state) {
            followedWorkloads();
            return Optional.ofNullable(state.shown(state.workloads.get(id)));
        }
    }

    /**
     * When gang admission next has something to do in {@code cluster} (a readiness deadline, the end of a backoff), by
     * the decider's clock; empty when nothing waits, gang admission is off there, or this is a read replica.
     */
    public Optional<Instant> nextDeadline(ClusterArn cluster) {
        synchronized (state) {
            return state.nextDeadline(cluster);
        }
    }

    @Override
    public List<WorkloadRecord> workloads(ClusterArn cluster, String team, WorkloadState workloadState) {
        synchronized (state) {
            return recorded(cluster, team, workloadState)
                    .sorted(Comparator.comparing(WorkloadRecord::workloadId))
                    .map(state::shown)
                    .toList();
        }
    }

    /** The workload records held that match (a null filter matches any), as last written; the caller holds the state's lock. */
    private Stream<WorkloadRecord> recorded(ClusterArn cluster, String team, WorkloadState workloadState) {
        followedWorkloads();
        return state.workloads.values().stream()
                .filter(r -> cluster == null || cluster.equals(r.cluster()))
                .filter(r -> team == null || team.equals(r.team()))
                .filter(r -> workloadState == null || workloadState == r.state());
    }

    /**
     * The records of {@code cluster}'s workloads as this instance holds them, by id: what its changelog carries, without
     * the live figures reads add to pending workloads' messages ({@link AdmissionState#shown}).
     */
    Map<String, WorkloadRecord> held(ClusterArn cluster) {
        synchronized (state) {
            Map<String, WorkloadRecord> out = new TreeMap<>();
            recorded(cluster, null, null).forEach(r -> out.put(r.workloadId(), r));
            return out;
        }
    }

    /** Only the copy of the scheduler is taken under the state's lock; the forecast runs outside it. */
    @Override
    public Optional<dev.taskgov.core.estimate.StartEstimate> startEstimate(WorkloadRecord r) {
        if (r.state() != WorkloadState.Pending) return Optional.empty();
        return startEstimates.of(r.cluster(), forecastSnapshot(r.cluster(), List.of(r.workloadId())), r.workloadId());
    }

    @Override
    public Map<String, dev.taskgov.core.estimate.StartEstimate> startEstimates(ClusterArn cluster, java.util.Collection<String> ids) {
        return startEstimates.forecast(cluster, forecastSnapshot(cluster, ids)).map(f -> f.estimates()).orElse(Map.of());
    }

    private StartEstimates.Snapshot forecastSnapshot(ClusterArn cluster, java.util.Collection<String> ids) {
        synchronized (state) {
            return startEstimates.snapshot(cluster, readScheduler(cluster).orElse(null), state.workloads.values(), ids);
        }
    }

    @Override
    public List<WorkloadView> queue(ClusterArn cluster, String team) {
        synchronized (state) {
            Optional<Scheduler> s = readScheduler(cluster);
            if (s.isEmpty()) return List.of();
            if (!state.mode().replica()) return s.get().queue(team);
            // A restored scheduler has not run a cycle: why each one waits is what the decider recorded.
            return s.get().queue(team).stream().map(v -> {
                WorkloadRecord r = state.workloads.get(v.workloadId());
                return r == null ? v : new WorkloadView(v.workloadId(), v.team(), v.state(), r.reason(), r.message(),
                        v.priority(), v.submittedAt(), v.admittedAt(), v.placement(), v.borrowed());
            }).toList();
        }
    }

    @Override
    public WorkloadCluster.Result clusterOf(String clusterArn) {
        synchronized (state) {
            return WorkloadCluster.choose(clusterArn, state.inputs.governed());
        }
    }

    @Override
    public DryRunResult dryRun(WorkloadSubmitted submission) {
        synchronized (state) {
            WorkloadCluster.Result where = clusterOf(submission);
            if (where instanceof WorkloadCluster.Refused r) throw new ValidationException(r.violation().field(), r.violation().rule());
            ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
            return schedulerFor(c).dryRun(submission.withClusterArn(c.orNull()));
        }
    }

    @Override
    public WorkloadValidation.Result validate(WorkloadSubmitted submission) {
        synchronized (state) {
            WorkloadCluster.Result where = clusterOf(submission);
            if (where instanceof WorkloadCluster.Refused r) {
                return new WorkloadValidation.Invalid(RejectReason.UnknownCluster, List.of(r.violation()));
            }
            ClusterArn c = ((WorkloadCluster.Chosen) where).cluster();
            return WorkloadValidation.validate(submission, schedulerFor(c).validationContext(), state.clock.instant());
        }
    }

    /**
     * The workloads the gauges count, in one pass: pending ones per cluster, team and reason, and admitted
     * (running) ones per cluster and team (Kueue's {@code kueue_admitted_active_workloads}).
     */
    public WorkloadCounts workloadCounts() {
        synchronized (state) {
            Map<ClusterArn, Map<String, Map<String, Long>>> pending = new TreeMap<>();
            Map<ClusterArn, Map<String, Long>> admitted = new TreeMap<>();
            followedWorkloads();
            // counted as records come and go (HeldWorkloads): here only each cluster held asks whether it is this state's
            state.workloads.forEachPending(state::owns, (cluster, team, reason, n) ->
                    pending.computeIfAbsent(cluster, c -> new TreeMap<>()).computeIfAbsent(team, t -> new TreeMap<>()).put(reason, n));
            state.workloads.forEachAdmitted(state::owns, (cluster, team, n) ->
                    admitted.computeIfAbsent(cluster, c -> new TreeMap<>()).put(team, n));
            return new WorkloadCounts(pending, admitted);
        }
    }

    /** @see #workloadCounts() */
    public record WorkloadCounts(Map<ClusterArn, Map<String, Map<String, Long>>> pendingByTeamAndReason,
                                 Map<ClusterArn, Map<String, Long>> admittedByTeam) {
    }

    /**
     * Runs a read against the scheduler (ledger and config) of each cluster this state decides for, under the lock
     * (metrics); nothing when not deciding. (It knows every cluster's quotas and nodes, and decides for its
     * partition's.)
     */
    public void forEachScheduler(BiConsumer<ClusterArn, Scheduler> read) {
        synchronized (state) {
            state.clusters.forEach((c, g) -> {
                if (g.scheduler != null && state.owns(c)) read.accept(c, g.scheduler);
            });
        }
    }

    @Override
    public List<TeamQuota> quotas(ClusterArn cluster) {
        synchronized (state) {
            Governed g = state.clusters.get(cluster);
            return g == null ? List.of() : List.copyOf(g.quotas.values());
        }
    }

    @Override
    public SortedSet<ClusterArn> governed() {
        synchronized (state) {
            return state.inputs.governed();
        }
    }

    @Override
    public Optional<ClusterSummary> summary(ClusterArn cluster) {
        synchronized (state) {
            if (!state.inputs.governed().contains(cluster)) return Optional.empty();
            Optional<Scheduler> s = readScheduler(cluster); // parses the followed workloads too
            ClusterInputs in = state.inputs.of(cluster);
            Map<String, Long> byState = new TreeMap<>();
            state.workloads.values().stream().filter(r -> r.cluster().equals(cluster))
                    .forEach(r -> byState.merge(r.state().name(), 1L, Long::sum));
            return Optional.of(ClusterSummary.of(cluster, in.nodes(), s.map(Scheduler::ledger).orElse(null),
                    in.config(), byState));
        }
    }

    @Override
    public TeamsInCluster teams(ClusterArn cluster) {
        synchronized (state) {
            List<TeamUsage> usage = readScheduler(cluster).map(s -> TeamUsage.of(s.ledger())).orElse(List.of());
            Map<String, Map<String, Long>> pending = workloadCounts().pendingByTeamAndReason().getOrDefault(cluster, Map.of());
            return new TeamsInCluster(usage, pending);
        }
    }
}
