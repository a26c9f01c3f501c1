package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Placement;

import java.time.Instant;
import java.util.Map;

/**
 * A workload's current state as the scheduler knows it.
 *
 * @param reason     pending or rejected reason name, null when admitted or finished
 * @param placement  where it runs (admitted only)
 * @param submittedAt its place in the queue: the submission time, or when it failed if it is queued again to retry
 * @param borrowed   what it borrows per instance type (admitted only)
 * @param retries    how many times it was queued again after a failure
 */
public record WorkloadView(String workloadId, String team, WorkloadState state, String reason, String message,
                           int priority, Instant submittedAt, Instant admittedAt, Placement placement,
                           Map<String, Resources> borrowed, int retries) {

    /** A view of a workload that never retried. */
    public WorkloadView(String workloadId, String team, WorkloadState state, String reason, String message, int priority,
                        Instant submittedAt, Instant admittedAt, Placement placement, Map<String, Resources> borrowed) {
        this(workloadId, team, state, reason, message, priority, submittedAt, admittedAt, placement, borrowed, 0);
    }
}
