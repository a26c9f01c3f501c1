package dev.taskgov.preemption;

/**
 * The topic names preemption-service reads and writes (all configurable; defaults in design.md).
 *
 * @param changelog preemption's own compacted topic: reservations made for preemptors and pending
 *                  grace periods, so a restart loses neither
 */
public record PreemptionTopics(String requested, String submitted, String admitted, String finished, String preempted,
                               String quota, String topology, String status, String deadLetter, String changelog) {

    /** The defaults of design.md, plus preemption's own changelog. */
    public static PreemptionTopics defaults() {
        return new PreemptionTopics("taskgov.preemption.requested", "taskgov.workload.submitted",
                "taskgov.workload.admitted", "taskgov.workload.finished", "taskgov.workload.preempted", "taskgov.quota",
                "taskgov.topology", "taskgov.workload.status", "taskgov.deadletter", "taskgov.preemption.changelog");
    }

    /** The same names behind a prefix ({@code <prefix>.<name>}): one isolated cluster per test. */
    public PreemptionTopics prefixed(String prefix) {
        return new PreemptionTopics(prefix + "." + requested, prefix + "." + submitted, prefix + "." + admitted,
                prefix + "." + finished, prefix + "." + preempted, prefix + "." + quota, prefix + "." + topology,
                prefix + "." + status, prefix + "." + deadLetter, prefix + "." + changelog);
    }
}
