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
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;

/**
 * What the HTTP reads ask of admission's state: one state that holds every cluster's workloads (a read replica, or a
 * decider of inputs with one partition; {@link AdmissionReads}), or the deciding states of every partition, each read
 * sent to the one that holds its cluster ({@link PartitionedReads}).
 */
public interface WorkloadReads {

    /** A workload as it is now: its last version, showing figures not yet written. */
    Optional<WorkloadRecord> workload(String id);

    /** Records filtered by cluster, team and state (null = any), by id. */
    List<WorkloadRecord> workloads(ClusterArn cluster, String team, WorkloadState workloadState);

    /** A pending workload's estimated start (docs/semantics.md, "Estimated start"); empty in any other state. */
    Optional<StartEstimate> startEstimate(WorkloadRecord r);

    /** The estimated starts of a cluster's pending workloads {@code ids} (one forecast shared by all), by id. */
    Map<String, StartEstimate> startEstimates(ClusterArn cluster, Collection<String> ids);

    /** A team's pending workloads in queue order, in one cluster. */
    List<WorkloadView> queue(ClusterArn cluster, String team);

    /** The cluster a submission would run in, or why it would be refused ({@link WorkloadCluster}). */
    default WorkloadCluster.Result clusterOf(WorkloadSubmitted submission) {
        return clusterOf(submission.clusterArn());
    }

    /** The cluster a record naming {@code clusterArn} (or none) belongs to, or why none ({@link WorkloadCluster}). */
    WorkloadCluster.Result clusterOf(String clusterArn);

    /** A dry run in the cluster the submission names (or the only one); an unknown cluster is an error. */
    DryRunResult dryRun(WorkloadSubmitted submission);

    /** Validates against the cluster's nodes, quotas and priority classes (and that the cluster is governed). */
    WorkloadValidation.Result validate(WorkloadSubmitted submission);

    /** Teams with a quota, in one cluster. */
    List<TeamQuota> quotas(ClusterArn cluster);

    /** The clusters the deployment governs (declared on the topology topic, or with nodes). */
    SortedSet<ClusterArn> governed();

    /** One cluster's summary for {@code GET /clusters}: nodes, capacity, quotas and use; empty when unknown. */
    Optional<ClusterSummary> summary(ClusterArn cluster);

    /**
     * One cluster's teams for {@code GET /teams}: the quota figures of each team with a quota ({@link TeamUsage}, the
     * ledger the gauges read) and the pending workloads by reason of every team, also one without a quota.
     */
    TeamsInCluster teams(ClusterArn cluster);

    /** @see #teams(ClusterArn) */
    record TeamsInCluster(List<TeamUsage> usage, Map<String, Map<String, Long>> pendingByTeamAndReason) {
    }
}
