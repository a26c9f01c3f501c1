package dev.taskgov.core.model;

/** Why a workload was chosen as a preemption victim. */
public enum PreemptionReason {
    /** A higher-priority task of the same team needed the room. */
    InTeamPriority,
    /** A team reclaimed quota it had lent to the victim's team. */
    ReclaimLentCapacity,
    /** Fair sharing moved borrowed capacity to a team with a lower weighted share. */
    FairSharing
}
