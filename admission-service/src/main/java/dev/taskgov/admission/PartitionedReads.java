package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.estimate.StartEstimate;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.WorkloadView;

import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * The reads of an instance that decides for every partition of the inputs, answered from its deciding states: each
 * state knows every cluster's quotas and nodes but holds the workloads of its partition's clusters only, so a read
 * about a cluster goes to the state holding it, and a read across clusters asks each. Such an instance needs no read
 * replica ({@link AdmissionReplica#standsDownWhile}).
 */
final class PartitionedReads implements WorkloadReads {

    private final List<AdmissionReads> partitions;

    private PartitionedReads(List<AdmissionReads> partitions) {
        this.partitions = List.copyOf(partitions);
    }

    /** The reads of {@code partitions} (not empty; one state answers for itself). */
    static WorkloadReads of(List<AdmissionReads> partitions) {
        if (partitions.isEmpty()) throw new IllegalArgumentException("partitions: at least one state is needed");
        return partitions.size() == 1 ? partitions.get(0) : new PartitionedReads(partitions);
    }

    /** The state that holds the cluster's workloads (any, for a cluster none holds: then it holds none of them). */
    private AdmissionReads holding(ClusterArn cluster) {
        for (AdmissionReads p : partitions) {
            if (p.owns(cluster)) return p;
        }
        return partitions.get(0);
    }

    /** The state of the cluster a submission would run in; for one refused, any (each refuses it alike). */
    private AdmissionReads holding(WorkloadSubmitted submission) {
        return clusterOf(submission) instanceof WorkloadCluster.Chosen chosen ? holding(chosen.cluster()) : partitions.get(0);
    }

    @Override
    public Optional<WorkloadRecord> workload(String id) {
        for (AdmissionReads p : partitions) {
            Optional<WorkloadRecord> found = p.workload(id);
            if (found.isPresent()) return found;
        }
        return Optional.empty();
    }

    @Override
    public List<WorkloadRecord> workloads(ClusterArn cluster, String team, WorkloadState workloadState) {
        if (cluster != null) return holding(cluster).workloads(cluster, team, workloadState);
        return partitions.stream().flatMap(p -> p.workloads(null, team, workloadState).stream())
                .sorted(Comparator.comparing(WorkloadRecord::workloadId)).toList();
    }

    @Override
    public Optional<StartEstimate> startEstimate(WorkloadRecord r) {
        return holding(r.cluster()).startEstimate(r);
    }

    @Override
    public Map<String, StartEstimate> startEstimates(ClusterArn cluster, Collection<String> ids) {
        return holding(cluster).startEstimates(cluster, ids);
    }

    @Override
    public List<WorkloadView> queue(ClusterArn cluster, String team) {
        return holding(cluster).queue(cluster, team);
    }

    @Override
    public WorkloadCluster.Result clusterOf(String clusterArn) {
        return partitions.get(0).clusterOf(clusterArn);
    }

    @Override
    public DryRunResult dryRun(WorkloadSubmitted submission) {
        return holding(submission).dryRun(submission);
    }

    @Override
    public WorkloadValidation.Result validate(WorkloadSubmitted submission) {
        return holding(submission).validate(submission);
    }

    @Override
    public List<TeamQuota> quotas(ClusterArn cluster) {
        return holding(cluster).quotas(cluster);
    }

    @Override
    public SortedSet<ClusterArn> governed() {
        return partitions.get(0).governed();
    }

    @Override
    public Optional<ClusterSummary> summary(ClusterArn cluster) {
        return holding(cluster).summary(cluster);
    }

    @Override
    public TeamsInCluster teams(ClusterArn cluster) {
        return holding(cluster).teams(cluster);
    }
}
