package dev.taskgov.watcher;

/** The annotations the watcher writes on a job so {@code kubectl describe} tells its story. */
public final class JobStates {
    public static final String WORKLOAD_ID = "taskgov.dev/workload-id";
    public static final String STATE = "taskgov.dev/state";
    public static final String REASON = "taskgov.dev/reason";
    public static final String MESSAGE = "taskgov.dev/message";
    /**
     * Gang admission: "true" once every pod of the job's current admission was seen ready and reported; a new
     * admission clears it (readiness is reported after each admission).
     */
    public static final String PODS_READY = "taskgov.dev/pods-ready";

    /** Values of {@link #STATE}. */
    public static final String SUBMITTED = "Submitted";
    public static final String PENDING = "Pending";
    public static final String ADMITTED = "Admitted";
    public static final String PREEMPTED = "Preempted";
    public static final String FINISHED = "Finished";
    public static final String REJECTED = "Rejected";
    public static final String INVALID = "Invalid";

    private JobStates() {
    }

    /** States in which taskgov holds the workload, so deleting the job must cancel it. */
    public static boolean live(String state) {
        return SUBMITTED.equals(state) || PENDING.equals(state) || ADMITTED.equals(state) || PREEMPTED.equals(state);
    }
}
