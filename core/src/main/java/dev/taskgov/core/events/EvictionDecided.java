package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.InCluster;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.model.WorkloadIds;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An eviction without a preemptor that admission-service decided and applied in its own transaction (a node under
 * the workload failed with no room left for its pods, or its team's quota was disabled or deleted), handed to
 * preemption-service on {@code taskgov.preemption.requested} (ce_type {@link #TYPE}): preemption-service alone
 * writes {@code taskgov.workload.preempted}, and publishes there the {@link WorkloadPreempted} of {@link #toEvent()}.
 *
 * @param reason     {@link PreemptionReason#NodeFailure} or {@link PreemptionReason#QuotaRemoved} (a reason without
 *                   a preemptor, {@link PreemptionReason#hasPreemptor()})
 * @param evictedAt  when admission-service evicted it (the published eviction's {@code preemptedAt})
 * @param clusterArn the workload's cluster (left out for the unnamed cluster)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvictionDecided(String workloadId, String team, PreemptionReason reason, String message, Instant evictedAt,
                              String clusterArn) implements InCluster {

    /** CloudEvents {@code ce_type}: one of the two record types on {@code taskgov.preemption.requested}. */
    public static final String TYPE = "dev.taskgov.eviction.decided";

    /** The eviction as admission-service's scheduler decided it ({@code Decision.Evict#toEvent()}). */
    public static EvictionDecided of(WorkloadPreempted eviction) {
        return new EvictionDecided(eviction.workloadId(), eviction.team(), eviction.reason(), eviction.message(),
                eviction.preemptedAt(), eviction.clusterArn());
    }

    /** The {@code taskgov.workload.preempted} record preemption-service publishes: the same eviction, no preemptor. */
    public WorkloadPreempted toEvent() {
        return new WorkloadPreempted(workloadId, team, null, reason, message, evictedAt, clusterArn);
    }

    /** The rules the record breaks, each naming its field; empty when preemption-service may publish it. */
    public List<Violation> violations() {
        List<Violation> v = new ArrayList<>();
        WorkloadIds.check("workloadId", workloadId).ifPresent(v::add);
        if (team == null || team.isBlank()) v.add(new Violation("team", "is required (the evicted workload's team)"));
        if (reason == null) {
            v.add(new Violation("reason", "is required: NodeFailure, QuotaRemoved or PodsReadyTimeout"));
        } else if (reason.hasPreemptor()) {
            v.add(new Violation("reason", "an eviction admission-service decides itself has no preemptor: NodeFailure, QuotaRemoved or PodsReadyTimeout, "
                    + "was " + reason + " (preemption-service decides that one)"));
        }
        if (message == null || message.isBlank()) v.add(new Violation("message", "is required (why it was evicted)"));
        if (evictedAt == null) v.add(new Violation("evictedAt", "is required"));
        if (clusterArn != null) ClusterArn.problem(clusterArn).ifPresent(p -> v.add(new Violation("clusterArn", p)));
        return v;
    }
}
