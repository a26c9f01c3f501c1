package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import dev.taskgov.core.model.WorkloadState;

import java.time.Instant;

/**
 * The latest state of a workload (value of the compacted {@code taskgov.workload.status}).
 *
 * @param reason a {@link dev.taskgov.core.model.PendingReason} or {@link dev.taskgov.core.model.RejectReason}
 *               name, or null when Admitted/Finished
 * @param clusterArn the workload's cluster (left out for the unnamed cluster of a deployment whose records name none)
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record WorkloadStatus(String workloadId, String team, WorkloadState state, String reason, String message,
                             Instant updatedAt, String clusterArn) implements InCluster {

    /** A status in no named cluster. */
    public WorkloadStatus(String workloadId, String team, WorkloadState state, String reason, String message,
                          Instant updatedAt) {
        this(workloadId, team, state, reason, message, updatedAt, null);
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.status";

}
