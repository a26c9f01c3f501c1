package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.time.Instant;
import java.util.List;

/**
 * A workload submission (value of {@code taskgov.workload.submitted}). The team is the namespace
 * without its {@code hyperpod-ns-} prefix.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                                String jobKind, Instant submittedAt, List<PodSetSpec> podSets) {
    /** CloudEvents {@code ce_type}. */
    public static final String TYPE = "dev.taskgov.workload.submitted";


    /** The namespace prefix HyperPod gives team namespaces. */
    public static final String NAMESPACE_PREFIX = "hyperpod-ns-";

    /** The team: the namespace without {@code hyperpod-ns-} (the namespace itself when it lacks the prefix). */
    public String team() {
        if (namespace == null) {
            return null;
        }
        return namespace.startsWith(NAMESPACE_PREFIX) ? namespace.substring(NAMESPACE_PREFIX.length()) : namespace;
    }

    /** A copy with another submission time. */
    public WorkloadSubmitted withSubmittedAt(Instant at) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, at, podSets);
    }
}
