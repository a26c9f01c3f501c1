package dev.taskgov.quota.api;

/** Enumerations of the SageMaker model; constant names are the wire values. */
public final class Enums {
    private Enums() {
    }

    /** {@code SchedulerResourceStatus}. */
    public enum Status {
        Creating, CreateFailed, CreateRollbackFailed, Created, Updating, UpdateFailed, UpdateRollbackFailed,
        Updated, Deleting, DeleteFailed, DeleteRollbackFailed, Deleted
    }

    public enum ActivationState { Enabled, Disabled }

    /** {@code SortQuotaBy}. */
    public enum SortQuotaBy { Name, CreationTime, Status, ClusterArn }

    /** {@code SortClusterSchedulerConfigBy}. */
    public enum SortClusterSchedulerConfigBy { Name, CreationTime, Status }

    public enum SortOrder { Ascending, Descending }

    public enum FairShare { Enabled, Disabled }
}
