package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

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
 * @param clusterArn the cluster the room is needed in (left out for the unnamed cluster); the same as
 *                   {@code workload.clusterArn}, on top so that a router needs not read the submission
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                                  Map<String, ResourceAmounts> lacking, String message, Instant requestedAt,
                                  String clusterArn) implements InCluster {

    /** A request in no named cluster. */
    public PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                               Map<String, ResourceAmounts> lacking, String message, Instant requestedAt) {
        this(workloadId, team, priority, workload, lacking, message, requestedAt, null);
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.preemption.requested";

}
