package dev.taskgov.core.model;

/** Where a workload is in its life. */
public enum WorkloadState {
    Pending, Admitted, Finished, Rejected;

    /** Whether the workload's life is over: it holds no place in a queue or quota and never will again. */
    public boolean hasEnded() {
        return this == Finished || this == Rejected;
    }
}
