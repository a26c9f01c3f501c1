package dev.taskgov.admission;

/** The topic names admission reads and writes (all configurable; defaults in design.md). */
public record AdmissionTopics(String submitted, String finished, String preempted, String quota, String topology,
                              String admitted, String status, String preemptionRequested, String deadLetter,
                              String changelog) {

    /** The defaults of design.md, plus admission's own changelog. */
    public static AdmissionTopics defaults() {
        return new AdmissionTopics("taskgov.workload.submitted", "taskgov.workload.finished", "taskgov.workload.preempted",
                "taskgov.quota", "taskgov.topology", "taskgov.workload.admitted", "taskgov.workload.status",
                "taskgov.preemption.requested", "taskgov.deadletter", "taskgov.admission.changelog");
    }
}
