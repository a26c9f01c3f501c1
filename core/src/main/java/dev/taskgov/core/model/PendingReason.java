package dev.taskgov.core.model;

/** Why a workload is pending (the {@code reason} of its status; the message carries the numbers). */
public enum PendingReason {
    /** Submitted; not yet considered by a scheduling cycle. */
    Queued,
    /** The team's quota and what the cohort lends leave too little. */
    QuotaExceeded,
    /** Admitting it would take the team past its borrowing limit. */
    BorrowLimitExceeded,
    /** Its pod set cannot be placed inside one domain of the topology level it requires. */
    TopologyPlacementFailed,
    /** Quota allows it but the nodes do not have room for its pods. */
    InsufficientCapacity,
    /** It was running and was evicted to make room for another workload. */
    Preempted,
    /**
     * It ran and failed, and has retries left ({@code taskgov.dev/max-retry}): it gave back its quota and
     * nodes and waits to be admitted again by the usual rules, queued as of its failure; the message says
     * which retry ("retry 1 of 2").
     */
    RetryAfterFailure,
    /** It was nominated and waits for the evictions that make room for it. */
    WaitingForPreemption,
    /**
     * Its team has no active compute quota. No longer given ({@link #NoQuota} is); kept so that
     * status and changelog records written before can still be read.
     */
    TeamInactive,
    /** Its team's compute quota is disabled or deleted; it is admitted again when the quota comes back. */
    NoQuota,
    /**
     * It can never be admitted as things stand: it asks for more of a resource than its team's
     * nominal quota plus borrowing limit, or than all the cluster's ready nodes of the instance type
     * offer. It stays pending (and is looked at again) so that it runs if quotas or capacity grow.
     */
    Inadmissible,
    /**
     * Gang admission: its pods were not all ready in time, so it was evicted ({@code PodsReadyTimeout}) and waits out
     * a backoff before it may be admitted again; meanwhile it is not a head of its team's queue.
     */
    Backoff
}
