package dev.taskgov.preemption;

/** CloudEvents {@code ce_type} values of what preemption-service emits. */
public final class EventTypes {
    public static final String PREEMPTED = "dev.taskgov.workload.preempted";
    public static final String STATUS = "dev.taskgov.workload.status";
    public static final String CHANGELOG = "dev.taskgov.preemption.changelog";

    private EventTypes() {
    }
}
