package dev.taskgov.preemption;

/**
 * The CloudEvents {@code ce_type} of preemption-service's own changelog (internal state); the types of
 * the public events are declared next to their records in core ({@code WorkloadPreempted.TYPE}, ...).
 */
public final class EventTypes {
    public static final String CHANGELOG = "dev.taskgov.preemption.changelog";

    private EventTypes() {
    }
}
