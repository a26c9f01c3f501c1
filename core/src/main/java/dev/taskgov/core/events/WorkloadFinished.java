package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import java.time.Instant;

/**
 * A workload ended (value of {@code taskgov.workload.finished}).
 *
 * @param clusterArn optional: the workload's cluster, when the producer knows it (the CLI and the job watcher
 *                   write it); a decider finds the cluster of a finished workload by its id otherwise
 */
@com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_NULL)
public record WorkloadFinished(String workloadId, Instant finishedAt, Outcome outcome, String clusterArn) implements InCluster {

    /** A finish that names no cluster. */
    public WorkloadFinished(String workloadId, Instant finishedAt, Outcome outcome) {
        this(workloadId, finishedAt, outcome, null);
    }

    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.finished";


    public enum Outcome { Succeeded, Failed, Cancelled }
}
