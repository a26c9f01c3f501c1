package dev.taskgov.core.events;

import dev.taskgov.core.model.WorkloadState;

import java.time.Instant;

/**
 * The latest state of a workload (value of the compacted {@code taskgov.workload.status}).
 *
 * @param reason a {@link dev.taskgov.core.model.PendingReason} or {@link dev.taskgov.core.model.RejectReason}
 *               name, or null when Admitted/Finished
 */
public record WorkloadStatus(String workloadId, String team, WorkloadState state, String reason, String message,
                             Instant updatedAt) {
    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.status";

}
