package dev.taskgov.admission;

/** CloudEvents {@code ce_type} values admission-service writes. */
public final class AdmissionEvents {
    public static final String ADMITTED = "dev.taskgov.workload.admitted";
    /** An eviction admission-service decides itself (node failure, quota removed): no preemptor. */
    public static final String PREEMPTED = "dev.taskgov.workload.preempted";
    public static final String STATUS = "dev.taskgov.workload.status";
    public static final String PREEMPTION_REQUESTED = "dev.taskgov.preemption.requested";
    public static final String CHANGELOG = "dev.taskgov.admission.changelog";
    public static final String SUBMITTED = "dev.taskgov.workload.submitted";

    private AdmissionEvents() {
    }
}
