package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.topology.PodSetRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A workload submission (value of {@code taskgov.workload.submitted}). The team is the namespace
 * without its {@code hyperpod-ns-} prefix.
 *
 * @param clusterArn the cluster it runs in; may be left out only while the deployment governs exactly one
 *                   cluster ({@link dev.taskgov.core.cluster.WorkloadCluster}); the decider records the
 *                   cluster it chose, so every later record of the workload names it
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                                String jobKind, Instant submittedAt, List<PodSetSpec> podSets, String clusterArn) implements InCluster {

    /** A submission that names no cluster. */
    public WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                             String jobKind, Instant submittedAt, List<PodSetSpec> podSets) {
        this(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, null);
    }

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

    /**
     * The workload as the scheduler and the planner see it, for a submission that was validated
     * when it arrived ({@link WorkloadValidation} checks a new one): its class's weight now, the
     * lowest for a class that no longer exists or none.
     *
     * @param submittedAt its place in the queue (the decider's time when the submission had none)
     */
    public Workload toWorkload(SchedulerConfig config, Instant submittedAt) {
        Optional<String> priorityClass = config.classOf(this.priorityClass);
        List<PodSetRequest> requests = new ArrayList<>(podSets.size());
        for (PodSetSpec p : podSets) requests.add(p.toRequest());
        return new Workload(workloadId, team(), priorityClass.orElse(null), config.weightOf(priorityClass), submittedAt, requests);
    }

    /** A copy with another submission time. */
    public WorkloadSubmitted withSubmittedAt(Instant at) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, at, podSets, clusterArn);
    }

    /** A copy in another cluster (null: none named). */
    public WorkloadSubmitted withClusterArn(String cluster) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, cluster);
    }

}
