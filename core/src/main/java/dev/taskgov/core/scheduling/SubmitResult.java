package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;

/** What {@link Scheduler#submit} did. */
public sealed interface SubmitResult {

    /** Queued; the next {@link Scheduler#cycle()} considers it. */
    record Accepted(Workload workload) implements SubmitResult {
    }

    /** The id is already known (queued, running, finished or rejected): nothing changed. */
    record Ignored(String workloadId, String message) implements SubmitResult {
    }

    /** Refused for good. */
    record Rejected(Decision.Reject decision) implements SubmitResult {
    }
}
