package dev.taskgov.core.model;

/** Why a submission was refused for good. */
public enum RejectReason {
    /** A field breaks a rule (the message names it). */
    InvalidWorkload,
    /** The submission names a cluster the deployment does not govern, or none while it governs several. */
    UnknownCluster,
    /** No compute quota exists for the namespace's team. */
    UnknownTeam,
    /** A pod set names an instance type the cluster does not know. */
    UnknownInstanceType,
    /** The priority class is not in the scheduler config. */
    UnknownPriorityClass,
    /** One pod asks for more than any node of its instance type can ever offer. */
    PodFitsNoNode,
    /**
     * Gang admission: its pods missed the readiness timeout once more after it had been requeued the most times
     * allowed ({@code backoffLimitCount}); it ran and ends here.
     */
    RequeuingLimitExceeded
}
