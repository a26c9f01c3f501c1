package dev.taskgov.core.model;

/** Why a running workload was evicted: chosen as a preemption victim, or lost what it ran on. */
public enum PreemptionReason {
    /** A higher-priority task of the same team needed the room. */
    InTeamPriority,
    /** A team reclaimed quota it had lent to the victim's team. */
    ReclaimLentCapacity,
    /** Fair sharing moved borrowed capacity to a team with a lower weighted share. */
    FairSharing,
    /** A node it ran on became not ready or left, and its pods found no replacement inside their domain (no preemptor). */
    NodeFailure,
    /** Its team's compute quota was disabled or deleted (no preemptor). */
    QuotaRemoved,
    /** Gang admission: not all its pods reported ready within the timeout after its admission (no preemptor). */
    PodsReadyTimeout;

    /**
     * Whether an eviction for this reason has a preemptor: true for the three preemption reasons, which
     * preemption-service decides; false for {@link #NodeFailure}, {@link #QuotaRemoved} and {@link #PodsReadyTimeout},
     * which admission-service decides and applies itself (and hands to preemption-service to publish,
     * {@code EvictionDecided}).
     */
    public boolean hasPreemptor() {
        return this != NodeFailure && this != QuotaRemoved && this != PodsReadyTimeout;
    }
}
