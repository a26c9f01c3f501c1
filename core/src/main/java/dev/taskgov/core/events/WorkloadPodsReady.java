package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import java.time.Instant;

/**
 * Every pod of an admitted workload is ready (value of {@code taskgov.workload.pods-ready}, or of a team's own
 * {@code taskgov.workload.pods-ready.<team>}): gang admission's report (docs/semantics.md, "Gang admission"). Written by
 * whoever runs the workload: the job watcher from pod status, a pipeline over Kafka or {@code POST
 * /workloads/{id}/pods-ready}. It counts for the workload's current admission only; a workload admitted again reports
 * again.
 *
 * @param readyAt    when the writer saw every pod ready (information only: the decider's own time decides)
 * @param clusterArn optional: the workload's cluster, when the writer knows it; a decider finds the cluster by the id
 *                   otherwise
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record WorkloadPodsReady(String workloadId, Instant readyAt, String clusterArn) implements InCluster {

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.pods-ready";

    /** A report that names no cluster. */
    public WorkloadPodsReady(String workloadId, Instant readyAt) {
        this(workloadId, readyAt, null);
    }
}
