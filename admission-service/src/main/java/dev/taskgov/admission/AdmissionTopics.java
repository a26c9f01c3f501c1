package dev.taskgov.admission;

import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.TopicsConfig;

/** The topic names admission reads and writes (all configurable; defaults in {@link TopicCatalog}). */
public record AdmissionTopics(String submitted, String finished, String preempted, String quota, String topology,
                              String admitted, String status, String preemptionRequested, String deadLetter,
                              String changelog) {

    /** The names as configured: the shared ones under {@code taskgov.topics.*}, and admission's own changelog. */
    public static AdmissionTopics of(TopicsConfig t, String changelog) {
        return new AdmissionTopics(t.workloadSubmitted(), t.workloadFinished(), t.workloadPreempted(), t.quota(),
                t.topology(), t.workloadAdmitted(), t.workloadStatus(), t.preemptionRequested(), t.deadletter(), changelog);
    }

    /** The catalog's default names, admission's changelog included. */
    public static AdmissionTopics defaults() {
        return new AdmissionTopics(TopicCatalog.Names.WORKLOAD_SUBMITTED, TopicCatalog.Names.WORKLOAD_FINISHED,
                TopicCatalog.Names.WORKLOAD_PREEMPTED, TopicCatalog.Names.QUOTA, TopicCatalog.Names.TOPOLOGY,
                TopicCatalog.Names.WORKLOAD_ADMITTED, TopicCatalog.Names.WORKLOAD_STATUS,
                TopicCatalog.Names.PREEMPTION_REQUESTED, TopicCatalog.Names.DEADLETTER, TopicCatalog.Names.ADMISSION_CHANGELOG);
    }

    /** The same names behind a prefix ({@code <prefix>.<name>}): one isolated cluster per test. */
    public AdmissionTopics prefixed(String prefix) {
        return new AdmissionTopics(prefix + "." + submitted, prefix + "." + finished, prefix + "." + preempted,
                prefix + "." + quota, prefix + "." + topology, prefix + "." + admitted, prefix + "." + status,
                prefix + "." + preemptionRequested, prefix + "." + deadLetter, prefix + "." + changelog);
    }
}
