package dev.taskgov.core.model;

/**
 * A submission refused because its id belongs to another team: a workload id belongs to the team that first
 * submitted it, so another team can neither take over, nor replace, nor learn about that workload through it.
 * Nothing changes. The message names neither the owner nor the workload's state: to the refused team the id is
 * only "taken".
 *
 * @param workloadId the id asked for
 * @param team       the team that asked for it (not the owner)
 */
public record WorkloadIdTaken(String workloadId, String team) {

    /** The reason's name on every path: HTTP's 409 body, the dead letter's reason, the CLI and the job watcher. */
    public static final String REASON = "WorkloadIdTaken";

    /** The field and the rule, without the owner. */
    public Violation violation() {
        return new Violation("workloadId", "'" + workloadId + "' is taken: a workload id belongs to the team that first"
                + " submitted it, and team '" + team + "' is not that team; choose another id");
    }

    /** {@link #REASON}, then the field and the rule: how a dead letter and a log line say it. */
    public String message() {
        return REASON + ": " + violation();
    }
}
