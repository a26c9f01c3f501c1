package dev.taskgov.topology.config;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Typed configuration of topology-service (properties under {@code taskgov.}). Defaults are declared here and
 * only here; {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
@ConfigMapping(prefix = "taskgov")
public interface TopologyServiceConfig {

    /** Node sources, polling and labelling ({@code taskgov.topology.*}). */
    dev.taskgov.topology.TopologyConfig topology();

    /** Kafka topic names (design.md, "Kafka topics"). */
    Topics topics();

    interface Topics {
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
}
