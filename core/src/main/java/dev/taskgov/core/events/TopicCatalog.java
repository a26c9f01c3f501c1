package dev.taskgov.core.events;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Every Kafka topic taskgov uses, in one place: the ten of docs/architecture.md ("The wire contract"), the access keys and the audit trail and the two deciders' own
 * changelogs, each with its default name, the property that renames it, whether it is compacted (latest value
 * per key) and how many partitions a service gives it when it creates it. The services' typed configuration
 * ({@code TopicsConfig}, the changelog settings), their topic creation, the local runtime, test-support and the
 * CLI all read it from here.
 */
public final class TopicCatalog {

    /** The default names, as compile-time constants so that configuration annotations can declare them. */
    public static final class Names {
        public static final String WORKLOAD_SUBMITTED = "taskgov.workload.submitted";
        public static final String WORKLOAD_FINISHED = "taskgov.workload.finished";
        public static final String WORKLOAD_PODS_READY = "taskgov.workload.pods-ready";
        public static final String WORKLOAD_ADMITTED = "taskgov.workload.admitted";
        public static final String WORKLOAD_PREEMPTED = "taskgov.workload.preempted";
        public static final String WORKLOAD_STATUS = "taskgov.workload.status";
        public static final String PREEMPTION_REQUESTED = "taskgov.preemption.requested";
        public static final String QUOTA = "taskgov.quota";
        public static final String TOPOLOGY = "taskgov.topology";
        public static final String DEADLETTER = "taskgov.deadletter";
        public static final String ADMISSION_CHANGELOG = "taskgov.admission.changelog";
        public static final String PREEMPTION_CHANGELOG = "taskgov.preemption.changelog";
        public static final String CREDENTIALS = "taskgov.credentials";
        public static final String AUDIT = "taskgov.audit";

        private Names() {
        }
    }

    /**
     * One topic.
     *
     * @param defaultName the name unless renamed
     * @param property    the configuration property that renames it (environment variable: {@link #environmentVariable()})
     * @param compacted   log-compacted: the latest value per key is the state (quota, nodes, workload status, changelogs)
     * @param partitions  partitions a service creates it with: {@link #WORKLOAD_PARTITIONS} for the workload topics and
     *                    the changelogs (each partition holds a set of clusters, {@link ClusterPartitions}, and has one
     *                    decider at a time), one for the rest (quota, topology and dead letters are not split by cluster)
     */
    public record Topic(String defaultName, String property, boolean compacted, int partitions) {

        /** The property as Quarkus reads it from the environment, e.g. {@code TASKGOV_TOPICS_QUOTA}. */
        public String environmentVariable() {
            return property.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
        }
    }

    /**
     * Partitions of the workload topics and changelogs: the most decider instances that can share the work
     * (a partition is the unit of ownership), and few enough that an idle partition costs little. Clusters
     * map onto them by {@link ClusterPartitions}.
     */
    public static final int WORKLOAD_PARTITIONS = 8;

    public static final Topic WORKLOAD_SUBMITTED = workloadTopic(Names.WORKLOAD_SUBMITTED, "workload-submitted", false);
    public static final Topic WORKLOAD_FINISHED = workloadTopic(Names.WORKLOAD_FINISHED, "workload-finished", false);
    /** Gang admission: every pod of an admitted workload is ready (docs/semantics.md, "Gang admission"). */
    public static final Topic WORKLOAD_PODS_READY = workloadTopic(Names.WORKLOAD_PODS_READY, "workload-pods-ready", false);
    public static final Topic WORKLOAD_ADMITTED = workloadTopic(Names.WORKLOAD_ADMITTED, "workload-admitted", false);
    public static final Topic WORKLOAD_PREEMPTED = workloadTopic(Names.WORKLOAD_PREEMPTED, "workload-preempted", false);
    public static final Topic WORKLOAD_STATUS = workloadTopic(Names.WORKLOAD_STATUS, "workload-status", true);
    public static final Topic PREEMPTION_REQUESTED = workloadTopic(Names.PREEMPTION_REQUESTED, "preemption-requested", false);
    public static final Topic QUOTA = topic(Names.QUOTA, "quota", true);
    public static final Topic TOPOLOGY = topic(Names.TOPOLOGY, "topology", true);
    public static final Topic DEADLETTER = topic(Names.DEADLETTER, "deadletter", false);
    /** Access keys as the HTTP services verify them (secret encrypted with the master key), keyed by key id. */
    public static final Topic CREDENTIALS = topic(Names.CREDENTIALS, "credentials", true);
    /** Who did what: every change, HTTP submission and refused access, from every service. */
    public static final Topic AUDIT = topic(Names.AUDIT, "audit", false);
    public static final Topic ADMISSION_CHANGELOG =
            new Topic(Names.ADMISSION_CHANGELOG, "taskgov.admission.changelog-topic", true, WORKLOAD_PARTITIONS);
    public static final Topic PREEMPTION_CHANGELOG =
            new Topic(Names.PREEMPTION_CHANGELOG, "taskgov.preemption.changelog-topic", true, WORKLOAD_PARTITIONS);

    /** the public topics (docs/architecture.md, "The wire contract"), the public contract between the services and their users. */
    public static final List<Topic> SHARED = List.of(WORKLOAD_SUBMITTED, WORKLOAD_FINISHED, WORKLOAD_PODS_READY, WORKLOAD_ADMITTED,
            WORKLOAD_PREEMPTED, WORKLOAD_STATUS, PREEMPTION_REQUESTED, QUOTA, TOPOLOGY, DEADLETTER, CREDENTIALS, AUDIT);

    /** Every topic: the shared ones, then the deciders' changelogs. */
    public static final List<Topic> ALL = List.of(WORKLOAD_SUBMITTED, WORKLOAD_FINISHED, WORKLOAD_PODS_READY, WORKLOAD_ADMITTED,
            WORKLOAD_PREEMPTED, WORKLOAD_STATUS, PREEMPTION_REQUESTED, QUOTA, TOPOLOGY, DEADLETTER, CREDENTIALS, AUDIT,
            ADMISSION_CHANGELOG,
            PREEMPTION_CHANGELOG);

    private TopicCatalog() {
    }

    private static Topic topic(String name, String key, boolean compacted) {
        return new Topic(name, "taskgov.topics." + key, compacted, 1);
    }

    private static Topic workloadTopic(String name, String key, boolean compacted) {
        return new Topic(name, "taskgov.topics." + key, compacted, WORKLOAD_PARTITIONS);
    }

    /** The topic with this default name. */
    public static Optional<Topic> byDefaultName(String name) {
        return ALL.stream().filter(t -> t.defaultName().equals(name)).findFirst();
    }
}
