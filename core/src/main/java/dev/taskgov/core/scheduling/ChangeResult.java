package dev.taskgov.core.scheduling;

/**
 * What {@link Scheduler#finish}, {@link Scheduler#fail}, {@link Scheduler#evict}, {@link Scheduler#forget} or {@link Scheduler#restoreAdmitted} did.
 *
 * @param workloadId the workload named
 * @param outcome    what happened
 * @param message    for people
 */
public record ChangeResult(String workloadId, Outcome outcome, String message) {

    public enum Outcome {
        /** It was running; its resources are free now. */
        Released,
        /** It was pending; it left its queue. */
        RemovedFromQueue,
        /** It was running and is pending again (evicted). */
        Requeued,
        /** It was running, failed with retries left, and is pending again to retry ({@link Scheduler#fail}). */
        Retrying,
        /** It was put back as admitted ({@link Scheduler#restoreAdmitted}). */
        Restored,
        /** It runs and every pod of it is ready now ({@link Scheduler#podsReady}): its readiness timeout no longer applies. */
        PodsReady,
        /** It had ended (Finished or Rejected) and is forgotten: its id is unknown again ({@link Scheduler#forget}). */
        Forgotten,
        /** Nothing changed (unknown id, already finished, or not running). */
        Unchanged
    }
}
