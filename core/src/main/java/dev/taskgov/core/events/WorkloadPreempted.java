package dev.taskgov.core.events;

import dev.taskgov.core.model.PreemptionReason;

import java.time.Instant;

/** A running workload was evicted (value of {@code taskgov.workload.preempted}). */
public record WorkloadPreempted(String workloadId, String team, String preemptorWorkloadId, PreemptionReason reason,
                                String message, Instant preemptedAt) {
    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.preempted";

}
