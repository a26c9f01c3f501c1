package dev.taskgov.preemption;

import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.service.support.TopicsConfig;

/**
 * The topic names preemption-service reads and writes (all configurable; defaults in {@link dev.taskgov.core.events.TopicCatalog}).
 *
 * @param changelog preemption's own compacted topic: reservations made for preemptors and pending
 *                  grace periods, so a restart loses neither
 */
public record PreemptionTopics(String requested, String submitted, String admitted, String finished, String preempted,
                               String quota, String topology, String status, String deadLetter, String changelog) {

    /** The names as configured: the shared ones under {@code taskgov.topics.*}, and preemption's own changelog. */
    public static PreemptionTopics of(TopicsConfig t, String changelog) {
        return new PreemptionTopics(t.preemptionRequested(), t.workloadSubmitted(), t.workloadAdmitted(),
                t.workloadFinished(), t.workloadPreempted(), t.quota(), t.topology(), t.workloadStatus(), t.deadletter(),
                changelog);
    }

    /** The catalog's default names, preemption's changelog included. */
    public static PreemptionTopics defaults() {
        return new PreemptionTopics(Names.PREEMPTION_REQUESTED, Names.WORKLOAD_SUBMITTED, Names.WORKLOAD_ADMITTED,
                Names.WORKLOAD_FINISHED, Names.WORKLOAD_PREEMPTED, Names.QUOTA, Names.TOPOLOGY, Names.WORKLOAD_STATUS,
                Names.DEADLETTER, Names.PREEMPTION_CHANGELOG);
    }

    /** The same names behind a prefix ({@code <prefix>.<name>}): one isolated cluster per test. */
    public PreemptionTopics prefixed(String prefix) {
        return new PreemptionTopics(prefix + "." + requested, prefix + "." + submitted, prefix + "." + admitted,
                prefix + "." + finished, prefix + "." + preempted, prefix + "." + quota, prefix + "." + topology,
                prefix + "." + status, prefix + "." + deadLetter, prefix + "." + changelog);
    }
}
