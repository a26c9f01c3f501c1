package dev.taskgov.service.support;

import dev.taskgov.core.events.TopicCatalog;

import java.util.List;
import java.util.function.UnaryOperator;

/**
 * The topic names a decider (admission-service, preemption-service) reads and writes: the nine shared ones and
 * its own changelog. Both deciders use every one of them (their inputs, their views, their outputs), so they share
 * this record; the names are configurable, their defaults, compaction and partitions come from {@link TopicCatalog}.
 *
 * @param changelog the decider's own compacted topic ({@link TopicCatalog#ADMISSION_CHANGELOG} or
 *                  {@link TopicCatalog#PREEMPTION_CHANGELOG}, renamed by its own property)
 * @param podsReady gang admission's readiness reports (each team's own topic is this name plus {@code .<team>})
 */
public record DeciderTopics(String submitted, String finished, String preempted, String quota, String topology,
                            String admitted, String status, String preemptionRequested, String deadLetter,
                            String changelog, String podsReady) {

    /** The names as configured: the shared ones under {@code taskgov.topics.*}, and the decider's changelog. */
    public static DeciderTopics of(TopicsConfig t, String changelog) {
        return new DeciderTopics(t.workloadSubmitted(), t.workloadFinished(), t.workloadPreempted(), t.quota(),
                t.topology(), t.workloadAdmitted(), t.workloadStatus(), t.preemptionRequested(), t.deadletter(), changelog,
                t.workloadPodsReady());
    }

    /** The catalog's default names, with the default name of this decider's changelog. */
    public static DeciderTopics defaults(TopicCatalog.Topic changelog) {
        return new DeciderTopics(TopicCatalog.Names.WORKLOAD_SUBMITTED, TopicCatalog.Names.WORKLOAD_FINISHED,
                TopicCatalog.Names.WORKLOAD_PREEMPTED, TopicCatalog.Names.QUOTA, TopicCatalog.Names.TOPOLOGY,
                TopicCatalog.Names.WORKLOAD_ADMITTED, TopicCatalog.Names.WORKLOAD_STATUS,
                TopicCatalog.Names.PREEMPTION_REQUESTED, TopicCatalog.Names.DEADLETTER, changelog.defaultName(),
                TopicCatalog.Names.WORKLOAD_PODS_READY);
    }

    /** The same names behind a prefix ({@code <prefix>.<name>}): one isolated cluster per test. */
    public DeciderTopics prefixed(String prefix) {
        UnaryOperator<String> p = name -> prefix + "." + name;
        return new DeciderTopics(p.apply(submitted), p.apply(finished), p.apply(preempted), p.apply(quota),
                p.apply(topology), p.apply(admitted), p.apply(status), p.apply(preemptionRequested), p.apply(deadLetter),
                p.apply(changelog), p.apply(podsReady));
    }

    /**
     * Each topic under its name here, with the partitions and compaction the catalog gives it, for creating the
     * missing ones ({@link Topics#ensure}).
     *
     * @param changelogTopic the catalog entry of this decider's changelog
     */
    public List<Topics.Spec> specs(TopicCatalog.Topic changelogTopic) {
        return List.of(
                Topics.Spec.of(TopicCatalog.WORKLOAD_SUBMITTED, submitted),
                Topics.Spec.of(TopicCatalog.WORKLOAD_FINISHED, finished),
                Topics.Spec.of(TopicCatalog.WORKLOAD_PREEMPTED, preempted),
                Topics.Spec.of(TopicCatalog.QUOTA, quota),
                Topics.Spec.of(TopicCatalog.TOPOLOGY, topology),
                Topics.Spec.of(TopicCatalog.WORKLOAD_ADMITTED, admitted),
                Topics.Spec.of(TopicCatalog.WORKLOAD_STATUS, status),
                Topics.Spec.of(TopicCatalog.PREEMPTION_REQUESTED, preemptionRequested),
                Topics.Spec.of(TopicCatalog.DEADLETTER, deadLetter),
                Topics.Spec.of(changelogTopic, changelog),
                Topics.Spec.of(TopicCatalog.WORKLOAD_PODS_READY, podsReady));
    }
}
