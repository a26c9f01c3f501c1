package dev.taskgov.testsupport;

import dev.taskgov.core.events.TopicCatalog;

import java.util.List;

/**
 * The topics of docs/architecture.md ("The wire contract") as tests create them: names and compaction from
 * {@link TopicCatalog} (the names in {@link TopicCatalog.Names}), which the services and the local runtime
 * ({@code deploy/local/taskgov-local}) use too.
 */
public final class TaskgovTopics {

    /** Partitions per topic in tests: more than one, so that ordering-by-key bugs can show. */
    public static final int PARTITIONS = 3;

    /** Every shared taskgov topic; the latest-value topics are compacted. */
    public static final List<TopicSpec> ALL = TopicCatalog.SHARED.stream()
            .map(t -> new TopicSpec(t.defaultName(), PARTITIONS, t.compacted()))
            .toList();

    private TaskgovTopics() {
    }
}
