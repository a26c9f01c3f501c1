package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadIdTaken;

/** What {@link Scheduler#submit} did. */
public sealed interface SubmitResult {

    /** Queued; the next {@link Scheduler#cycle()} considers it. */
    record Accepted(Workload workload) implements SubmitResult {
    }

    /** The id is already known as this team's workload (queued, running, finished or rejected): nothing changed. */
    record Ignored(String workloadId, String message) implements SubmitResult {
    }

    /** The id is another team's workload: refused, and nothing changed (the owner's workload least of all). */
    record IdTaken(WorkloadIdTaken refusal) implements SubmitResult {
    }

    /** Refused for good. */
    record Rejected(Decision.Reject decision) implements SubmitResult {
    }
}
