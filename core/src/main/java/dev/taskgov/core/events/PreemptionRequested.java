package dev.taskgov.core.events;

import dev.taskgov.core.preemption.RunningWorkload;

import dev.taskgov.core.cluster.InCluster;

import java.time.Instant;
import java.util.Map;
import java.util.Set;

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
 * @param protectedWorkloads running workloads the preemptor may not evict (left out when none): a preemptor that a
 *                   preemption evicted in the decider's current run may preempt only workloads admitted before the run
 *                   began, so the decider names those admitted since (docs/semantics.md, "Every run ends")
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY)
public record PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                                  Map<String, ResourceAmounts> lacking, String message, Instant requestedAt,
                                  String clusterArn, Set<String> protectedWorkloads) implements InCluster {

    public PreemptionRequested {
        protectedWorkloads = protectedWorkloads == null ? Set.of() : Set.copyOf(protectedWorkloads);
    }

    /** A request that protects no running workload. */
    public PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                               Map<String, ResourceAmounts> lacking, String message, Instant requestedAt, String clusterArn) {
        this(workloadId, team, priority, workload, lacking, message, requestedAt, clusterArn, Set.of());
    }

    /** A request in no named cluster. */
    public PreemptionRequested(String workloadId, String team, int priority, WorkloadSubmitted workload,
                               Map<String, ResourceAmounts> lacking, String message, Instant requestedAt) {
        this(workloadId, team, priority, workload, lacking, message, requestedAt, null);
    }

    /** Whether planning may evict this running workload for the preemptor. */
    public boolean mayEvict(RunningWorkload r) {
        return !protectedWorkloads.contains(r.id());
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.preemption.requested";

}
