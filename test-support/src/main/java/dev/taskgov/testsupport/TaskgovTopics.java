package dev.taskgov.testsupport;

import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.TopicCatalog.Names;

import java.util.List;

/**
 * The topics of docs/architecture.md ("The wire contract") as tests create them: names and compaction from
 * {@link TopicCatalog}, which the services and the local runtime ({@code deploy/local/taskgov-local}) use too.
 */
public final class TaskgovTopics {

    public static final String WORKLOAD_SUBMITTED = Names.WORKLOAD_SUBMITTED;
    public static final String WORKLOAD_FINISHED = Names.WORKLOAD_FINISHED;
    public static final String WORKLOAD_PODS_READY = Names.WORKLOAD_PODS_READY;
    public static final String WORKLOAD_ADMITTED = Names.WORKLOAD_ADMITTED;
    public static final String WORKLOAD_PREEMPTED = Names.WORKLOAD_PREEMPTED;
    public static final String WORKLOAD_STATUS = Names.WORKLOAD_STATUS;
    public static final String PREEMPTION_REQUESTED = Names.PREEMPTION_REQUESTED;
    public static final String QUOTA = Names.QUOTA;
    public static final String TOPOLOGY = Names.TOPOLOGY;
    public static final String DEADLETTER = Names.DEADLETTER;
    public static final String CREDENTIALS = Names.CREDENTIALS;
    public static final String AUDIT = Names.AUDIT;

    /** Partitions per topic in tests: more than one, so that ordering-by-key bugs can show. */
    public static final int PARTITIONS = 3;

    /** Every shared taskgov topic; the latest-value topics are compacted. */
    public static final List<TopicSpec> ALL = TopicCatalog.SHARED.stream()
            .map(t -> new TopicSpec(t.defaultName(), PARTITIONS, t.compacted()))
            .toList();

    private TaskgovTopics() {
    }
}
