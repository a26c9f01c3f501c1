package dev.taskgov.core.model;

/** {@code ComputeQuotaConfig.PreemptTeamTasks}: may a team's task preempt the team's own lower-priority tasks. */
public enum PreemptTeamTasks {
    /** Yes, strictly lower-priority ones (the default). */
    LowerPriority,
    /** Never. */
    Never
}
