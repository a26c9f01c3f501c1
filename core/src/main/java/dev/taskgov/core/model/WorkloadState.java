package dev.taskgov.core.model;

/** Where a workload is in its life. */
public enum WorkloadState {
    Pending, Admitted, Finished, Rejected
}
