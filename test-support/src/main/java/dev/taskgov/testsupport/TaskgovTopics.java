package dev.taskgov.testsupport;

import java.util.List;

/**
 * The topics of design.md ("Kafka topics") with their settings, as tests create them.
 * The same list is created by the local runtime ({@code deploy/local/taskgov-local}).
 */
public final class TaskgovTopics {

    public static final String WORKLOAD_SUBMITTED = "taskgov.workload.submitted";
    public static final String WORKLOAD_FINISHED = "taskgov.workload.finished";
    public static final String WORKLOAD_ADMITTED = "taskgov.workload.admitted";
    public static final String WORKLOAD_PREEMPTED = "taskgov.workload.preempted";
    public static final String WORKLOAD_STATUS = "taskgov.workload.status";
    public static final String PREEMPTION_REQUESTED = "taskgov.preemption.requested";
    public static final String QUOTA = "taskgov.quota";
    public static final String TOPOLOGY = "taskgov.topology";
    public static final String DEADLETTER = "taskgov.deadletter";

    /** Partitions per topic in tests: more than one, so that ordering-by-key bugs can show. */
    public static final int PARTITIONS = 3;

    /** Every taskgov topic; the latest-value topics are compacted. */
    public static final List<TopicSpec> ALL = List.of(
            TopicSpec.deleting(WORKLOAD_SUBMITTED, PARTITIONS),
            TopicSpec.deleting(WORKLOAD_FINISHED, PARTITIONS),
            TopicSpec.deleting(WORKLOAD_ADMITTED, PARTITIONS),
            TopicSpec.deleting(WORKLOAD_PREEMPTED, PARTITIONS),
            TopicSpec.compacted(WORKLOAD_STATUS, PARTITIONS),
            TopicSpec.deleting(PREEMPTION_REQUESTED, PARTITIONS),
            TopicSpec.compacted(QUOTA, PARTITIONS),
            TopicSpec.compacted(TOPOLOGY, PARTITIONS),
            TopicSpec.deleting(DEADLETTER, PARTITIONS));

    private TaskgovTopics() {
    }
}
