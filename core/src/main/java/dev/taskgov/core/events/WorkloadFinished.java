package dev.taskgov.core.events;

import java.time.Instant;

/** A workload ended (value of {@code taskgov.workload.finished}). */
public record WorkloadFinished(String workloadId, Instant finishedAt, Outcome outcome) {
    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.finished";


    public enum Outcome { Succeeded, Failed, Cancelled }
}
