package dev.taskgov.service.support;

import dev.taskgov.core.events.TopicCatalog;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class DeciderTopicsTest {

    @Test
    void eachDeciderCreatesEveryCatalogTopicButTheAccessOnesAndTheOtherDecidersChangelog() {
        List<TopicCatalog.Topic> changelogs = List.of(TopicCatalog.ADMISSION_CHANGELOG, TopicCatalog.PREEMPTION_CHANGELOG);
        for (TopicCatalog.Topic changelog : changelogs) {
            List<Topics.Spec> expected = TopicCatalog.ALL.stream()
                    .filter(t -> t != TopicCatalog.CREDENTIALS && t != TopicCatalog.AUDIT)
                    .filter(t -> !changelogs.contains(t) || t == changelog)
                    .map(t -> Topics.Spec.of(t, t.defaultName())).toList();

            assertThat(DeciderTopics.defaults(changelog).specs(changelog)).containsExactlyInAnyOrderElementsOf(expected);
        }
    }

    @Test
    void aPrefixRenamesEveryTopicAndKeepsWhatEachOneIs() {
        DeciderTopics t = DeciderTopics.defaults(TopicCatalog.PREEMPTION_CHANGELOG).prefixed("it-7");

        assertThat(t).isEqualTo(new DeciderTopics("it-7.taskgov.workload.submitted", "it-7.taskgov.workload.finished",
                "it-7.taskgov.workload.preempted", "it-7.taskgov.quota", "it-7.taskgov.topology",
                "it-7.taskgov.workload.admitted", "it-7.taskgov.workload.status", "it-7.taskgov.preemption.requested",
                "it-7.taskgov.deadletter", "it-7.taskgov.preemption.changelog", "it-7.taskgov.workload.pods-ready"));
        assertThat(t.specs(TopicCatalog.PREEMPTION_CHANGELOG)).contains(
                new Topics.Spec("it-7.taskgov.workload.status", TopicCatalog.WORKLOAD_PARTITIONS, true),
                new Topics.Spec("it-7.taskgov.quota", 1, true),
                new Topics.Spec("it-7.taskgov.deadletter", 1, false),
                new Topics.Spec("it-7.taskgov.preemption.changelog", TopicCatalog.WORKLOAD_PARTITIONS, true));
    }
}
