package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import dev.taskgov.core.model.PreemptionReason;

import java.time.Instant;

/**
 * A running workload was evicted (value of {@code taskgov.workload.preempted}).
 *
 * @param clusterArn the workload's cluster (left out for the unnamed cluster of a deployment whose records name none)
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record WorkloadPreempted(String workloadId, String team, String preemptorWorkloadId, PreemptionReason reason,
                                String message, Instant preemptedAt, String clusterArn) implements InCluster {

    /** An eviction in no named cluster. */
    public WorkloadPreempted(String workloadId, String team, String preemptorWorkloadId, PreemptionReason reason,
                             String message, Instant preemptedAt) {
        this(workloadId, team, preemptorWorkloadId, reason, message, preemptedAt, null);
    }

    /** A copy in a cluster (null: none named). */
    public WorkloadPreempted withClusterArn(String cluster) {
        return new WorkloadPreempted(workloadId, team, preemptorWorkloadId, reason, message, preemptedAt, cluster);
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.preempted";

}
