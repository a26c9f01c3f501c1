package dev.taskgov.service.support;

import io.smallrye.config.WithDefault;

/**
 * The Kafka topic names (design.md, "Kafka topics"), as the config group {@code taskgov.topics.*} of every
 * service's {@code @ConfigMapping}: the defaults are declared here once, and {@code application.properties}
 * refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
public interface TopicsConfig {
    /** Workload submissions (WorkloadSubmitted). */
    @WithDefault("taskgov.workload.submitted")
    String workloadSubmitted();

    /** Finished workloads. */
    @WithDefault("taskgov.workload.finished")
    String workloadFinished();

    /** Admission decisions (WorkloadAdmitted). */
    @WithDefault("taskgov.workload.admitted")
    String workloadAdmitted();

    /** Evictions, with preemptor and reason. */
    @WithDefault("taskgov.workload.preempted")
    String workloadPreempted();

    /** Latest state per workload (compacted). */
    @WithDefault("taskgov.workload.status")
    String workloadStatus();

    /** Pending workloads asking for room. */
    @WithDefault("taskgov.preemption.requested")
    String preemptionRequested();

    /** Effective quota per team and the scheduler config (compacted). */
    @WithDefault("taskgov.quota")
    String quota();

    /** Nodes with topology labels and allocatable resources (compacted). */
    @WithDefault("taskgov.topology")
    String topology();

    /** Records refused by a consumer, with the reason. */
    @WithDefault("taskgov.deadletter")
    String deadletter();
}
