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
 * @param submittedAt its place in the queue. Live, the platform stamps it when it first receives the workload
 *                    ({@link #receivedAt}); whatever a client sent is kept as {@code clientSubmittedAt}. Scenario
 *                    files and the simulator give it their virtual times.
 * @param annotations what the submitter records on the workload and taskgov does not decide on (such as
 *                    {@link #IMAGE_ANNOTATION}); shown by {@code GET /workloads/{id}}, left out of the JSON
 *                    when empty; never null (a missing one is empty)
 * @param clientSubmittedAt the time the submitter gave, kept only as information: a client cannot choose its
 *                    place in the queue or win a tie-break by sending an early time; null when it gave none
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                                String jobKind, Instant submittedAt, List<PodSetSpec> podSets, String clusterArn,
                                @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> annotations,
                                Instant clientSubmittedAt) implements InCluster {

    /** The job's container image, as {@code hyp create hyp-pytorch-job --image} gives it. */
    public static final String IMAGE_ANNOTATION = "taskgov.dev/image";
    /**
     * How many times the workload is queued again after it fails while admitted ({@code --max-retry}, a whole
     * number >= 0): a {@code Failed} finish with retries left gives back its quota and nodes and makes it
     * pending again (reason RetryAfterFailure); absent: a failure is final.
     */
    public static final String MAX_RETRY_ANNOTATION = "taskgov.dev/max-retry";
    /**
     * How long the workload is expected to run once admitted, an ISO-8601 duration greater than zero ({@code PT2H},
     * {@code --expected-runtime}): start estimates take a running workload's end from it (docs/semantics.md,
     * "Estimated start"); absent: its team's and class's learned run time.
     */
    public static final String EXPECTED_RUNTIME_ANNOTATION = "taskgov.dev/expected-runtime";

    public WorkloadSubmitted {
        // Every pending workload keeps its submission: a queue of 100,000 holds as many copies of a team's namespace,
        // queue, class, kind and cluster as workloads, each decoded anew, unless they share one instance.
        namespace = SharedNames.of(namespace);
        queueName = SharedNames.of(queueName);
        priorityClass = SharedNames.of(priorityClass);
        jobKind = SharedNames.of(jobKind);
        clusterArn = SharedNames.of(clusterArn);
        // Sorted for stable output; a TreeMap keeps null values so validation can name them.
        annotations = annotations == null || annotations.isEmpty() ? Map.of() : Collections.unmodifiableMap(new TreeMap<>(annotations));
    }

    /** A submission as its submitter writes it: no time of the client's kept apart. */
    public WorkloadSubmitted(String workloadId, String namespace, String queueName, String priorityClass,
                             String jobKind, Instant submittedAt, List<PodSetSpec> podSets, String clusterArn,
                             Map<String, String> annotations) {
        this(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, clusterArn, annotations, null);
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
        return namespace.startsWith(NAMESPACE_PREFIX) ? SharedNames.of(namespace.substring(NAMESPACE_PREFIX.length())) : namespace;
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
        return new Workload(workloadId, team(), priorityClass.orElse(null), config.weightOf(priorityClass), submittedAt, requests,
                maxRetry().orElse(0));
    }

    /**
     * The {@link #MAX_RETRY_ANNOTATION}, when present and a whole number >= 0 ({@link WorkloadValidation} refuses
     * any other value); empty when absent.
     */
    public Optional<Integer> maxRetry() {
        String value = annotations.get(MAX_RETRY_ANNOTATION);
        if (value == null) return Optional.empty();
        try {
            int n = Integer.parseInt(value.strip());
            return n < 0 ? Optional.empty() : Optional.of(n);
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    /**
     * The {@link #EXPECTED_RUNTIME_ANNOTATION}, when present and an ISO-8601 duration greater than zero
     * ({@link WorkloadValidation} refuses any other value); empty when absent.
     */
    public Optional<java.time.Duration> expectedRuntime() {
        return parseRuntime(annotations.get(EXPECTED_RUNTIME_ANNOTATION));
    }

    /** An ISO-8601 duration greater than zero ({@code PT90M}, {@code P1DT2H}); empty for anything else. */
    public static Optional<java.time.Duration> parseRuntime(String value) {
        if (value == null) return Optional.empty();
        try {
            java.time.Duration d = java.time.Duration.parse(value.strip());
            return d.isNegative() || d.isZero() ? Optional.empty() : Optional.of(d);
        } catch (java.time.format.DateTimeParseException e) {
            return Optional.empty();
        }
    }

    /** A copy with another submission time. */
    public WorkloadSubmitted withSubmittedAt(Instant at) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, at, podSets, clusterArn, annotations,
                clientSubmittedAt);
    }

    /**
     * The submission as the platform keeps it once it first received it at {@code at}: its place in the queue is
     * {@code at}; the time the client sent, if any, is kept as {@code clientSubmittedAt} (a client's own
     * {@code clientSubmittedAt} is kept when it sent no {@code submittedAt}).
     */
    public WorkloadSubmitted receivedAt(Instant at) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, at, podSets, clusterArn, annotations,
                submittedAt != null ? submittedAt : clientSubmittedAt);
    }

    /** A copy with these annotations added (replacing any of the same key). */
    public WorkloadSubmitted withAnnotations(Map<String, String> more) {
        Map<String, String> all = new TreeMap<>(annotations);
        all.putAll(more);
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, clusterArn, all,
                clientSubmittedAt);
    }

    /** A copy in another cluster (null: none named). */
    public WorkloadSubmitted withClusterArn(String cluster) {
        return new WorkloadSubmitted(workloadId, namespace, queueName, priorityClass, jobKind, submittedAt, podSets, cluster, annotations,
                clientSubmittedAt);
    }

}
