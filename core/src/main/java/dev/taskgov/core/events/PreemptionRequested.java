package dev.taskgov.core.events;

import java.time.Instant;
import java.util.Map;

/**
 * Admission asks the preemption service to make room (value of {@code taskgov.preemption.requested}).
 *
 * @param workloadId the nominated preemptor
 * @param team       its team
 * @param priority   its resolved priority weight
 * @param workload   the submission, as received
 * @param lacking    per instance type, what is missing for it to be admitted now
 * @param message    for people, with numbers
 */
public record PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                                  Map<String, ResourceAmounts> lacking, String message, Instant requestedAt) {
    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.preemption.requested";

}
