package dev.taskgov.admission;

/**
 * The CloudEvents {@code ce_type} of admission-service's own changelog (internal state); the types of
 * the public events are declared next to their records in core ({@code WorkloadAdmitted.TYPE}, ...).
 */
public final class AdmissionEvents {
    public static final String CHANGELOG = "dev.taskgov.admission.changelog";

    private AdmissionEvents() {
    }
}
