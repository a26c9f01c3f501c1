package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The one topic catalog says what docs/architecture.md's "The wire contract" table says, and names each topic once. */
class TopicCatalogTest {

    @Test
    void theSharedTopicsAreTheWireContractsTenPlusCredentialsAndAuditWithTheirCompaction() {
        Map<String, Boolean> compactedByName = TopicCatalog.SHARED.stream()
                .collect(Collectors.toMap(TopicCatalog.Topic::defaultName, TopicCatalog.Topic::compacted));
        assertThat(compactedByName).containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                Map.entry("taskgov.workload.submitted", false), Map.entry("taskgov.workload.finished", false),
                Map.entry("taskgov.workload.pods-ready", false),
                Map.entry("taskgov.workload.admitted", false), Map.entry("taskgov.workload.preempted", false),
                Map.entry("taskgov.workload.status", true), Map.entry("taskgov.preemption.requested", false),
                Map.entry("taskgov.quota", true), Map.entry("taskgov.topology", true),
                Map.entry("taskgov.deadletter", false), Map.entry("taskgov.credentials", true),
                Map.entry("taskgov.audit", false)));
    }

    @Test
    void everyTopicHasOneNameOnePropertyAndTheDecidersChangelogsAreCompacted() {
        assertThat(TopicCatalog.ALL).extracting(TopicCatalog.Topic::defaultName).doesNotHaveDuplicates();
        assertThat(TopicCatalog.ALL).extracting(TopicCatalog.Topic::property).doesNotHaveDuplicates();
        assertThat(TopicCatalog.ALL).containsAll(TopicCatalog.SHARED);
        assertThat(List.of(TopicCatalog.ADMISSION_CHANGELOG, TopicCatalog.PREEMPTION_CHANGELOG))
                .allMatch(TopicCatalog.Topic::compacted);
        // Workload topics and changelogs are split by cluster; quota, topology and dead letters are not.
        assertThat(TopicCatalog.ALL).filteredOn(t -> t.defaultName().startsWith("taskgov.workload.")
                        || t.defaultName().startsWith("taskgov.preemption.") || t.defaultName().startsWith("taskgov.admission."))
                .hasSize(9).allMatch(t -> t.partitions() == TopicCatalog.WORKLOAD_PARTITIONS);
        assertThat(List.of(TopicCatalog.QUOTA, TopicCatalog.TOPOLOGY, TopicCatalog.DEADLETTER)).allMatch(t -> t.partitions() == 1);
    }

    @Test
    void aTopicIsRenamedByItsPropertyOrTheMatchingEnvironmentVariable() {
        assertThat(TopicCatalog.QUOTA.property()).isEqualTo("taskgov.topics.quota");
        assertThat(TopicCatalog.QUOTA.environmentVariable()).isEqualTo("TASKGOV_TOPICS_QUOTA");
        assertThat(TopicCatalog.WORKLOAD_SUBMITTED.environmentVariable()).isEqualTo("TASKGOV_TOPICS_WORKLOAD_SUBMITTED");
        assertThat(TopicCatalog.ADMISSION_CHANGELOG.environmentVariable()).isEqualTo("TASKGOV_ADMISSION_CHANGELOG_TOPIC");
        assertThat(TopicCatalog.byDefaultName("taskgov.topology")).contains(TopicCatalog.TOPOLOGY);
        assertThat(TopicCatalog.byDefaultName("no.such.topic")).isEmpty();
    }
}
