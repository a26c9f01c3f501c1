package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import com.fasterxml.jackson.annotation.JsonInclude;

import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.topology.PodSetRequest;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A workload submission (value of {@code taskgov.workload.submitted}). The team is the namespace
 * without its {@code hyperpod-ns-} prefix.
 *
 * @param clusterArn  the cluster it runs in; may be left out only while the deployment governs exactly one
 *                    cluster ({@link dev.taskgov.core.cluster.WorkloadCluster}); the decider records the
 *                    cluster it chose, so every later record of the workload names it
 * @param annotations what the submitter records on the workload and taskgov does not decide on (such as
 *                    {@link #IMAGE_ANNOTATION}); shown by {@code GET /workloads/{id}}, left out of the JSON
 *                    when empty; never null (a missing one is empty)
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                                String jobKind, Instant submittedAt, List<PodSetSpec> podSets, String clusterArn,
                                @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> annotations) implements InCluster {

    /** The job's container image, as {@code hyp create hyp-pytorch-job --image} gives it. */
    public static final String IMAGE_ANNOTATION = "taskgov.dev/image";
    /** The job's retries after a failure ({@code --max-retry}), carried out by the job's operator (runPolicy.jobMaxRetryCount). */
    public static final String MAX_RETRY_ANNOTATION = "taskgov.dev/max-retry";

    public WorkloadSubmitted {
        // Sorted for stable output; a TreeMap keeps null values so validation can name them.
        annotations = annotations == null || annotations.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(annotations));
    }

    /** A submission in a cluster, without annotations. */
    public WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                             String jobKind, Instant submittedAt, List<PodSetSpec> podSets, String clusterArn) {
        this(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, clusterArn, Map.of());
    }

    /** A submission that names no cluster, with annotations. */
    public WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                             String jobKind, Instant submittedAt, List<PodSetSpec> podSets, Map<String, String> annotations) {
        this(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, null, annotations);
    }

    /** A submission that names no cluster, without annotations. */
    public WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                             String jobKind, Instant submittedAt, List<PodSetSpec> podSets) {
        this(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, null, Map.of());
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
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, at, podSets, clusterArn, annotations);
    }

    /** A copy with these annotations added (replacing any of the same key). */
    public WorkloadSubmitted withAnnotations(Map<String, String> more) {
        Map<String, String> all = new TreeMap<>(annotations);
        all.putAll(more);
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, clusterArn, all);
    }

    /** A copy in another cluster (null: none named). */
    public WorkloadSubmitted withClusterArn(String cluster) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, cluster, annotations);
    }

}
