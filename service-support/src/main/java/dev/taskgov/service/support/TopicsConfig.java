package dev.taskgov.service.support;

import dev.taskgov.core.events.TopicCatalog.Names;
import io.smallrye.config.WithDefault;

/**
 * The Kafka topic names (docs/architecture.md, "The wire contract"), as the config group {@code taskgov.topics.*} of every
 * service's {@code @ConfigMapping}: the defaults come from {@link dev.taskgov.core.events.TopicCatalog}, and
 * {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
public interface TopicsConfig {
    /** Workload submissions (WorkloadSubmitted). */
    @WithDefault(Names.WORKLOAD_SUBMITTED)
    String workloadSubmitted();

    /** Finished workloads. */
    @WithDefault(Names.WORKLOAD_FINISHED)
    String workloadFinished();

    /** Gang admission: every pod of an admitted workload is ready (WorkloadPodsReady); a team's own is this plus {@code .<team>}. */
    @WithDefault(Names.WORKLOAD_PODS_READY)
    String workloadPodsReady();

    /** Admission decisions (WorkloadAdmitted). */
    @WithDefault(Names.WORKLOAD_ADMITTED)
    String workloadAdmitted();

    /** Evictions, with preemptor and reason. */
    @WithDefault(Names.WORKLOAD_PREEMPTED)
    String workloadPreempted();

    /** Latest state per workload (compacted). */
    @WithDefault(Names.WORKLOAD_STATUS)
    String workloadStatus();

    /** Pending workloads asking for room. */
    @WithDefault(Names.PREEMPTION_REQUESTED)
    String preemptionRequested();

    /** Effective quota per team and the scheduler config (compacted). */
    @WithDefault(Names.QUOTA)
    String quota();

    /** Nodes with topology labels and allocatable resources (compacted). */
    @WithDefault(Names.TOPOLOGY)
    String topology();

    /** Records refused by a consumer, with the reason. */
    @WithDefault(Names.DEADLETTER)
    String deadletter();

    /** Access keys for request verification (compacted; secrets encrypted with the master key). */
    @WithDefault(Names.CREDENTIALS)
    String credentials();

    /** The audit trail: principal, time, operation, target, outcome. */
    @WithDefault(Names.AUDIT)
    String audit();
}
