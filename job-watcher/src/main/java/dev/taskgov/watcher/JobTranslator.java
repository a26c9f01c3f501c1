package dev.taskgov.watcher;

import java.time.Clock;
import java.time.Instant;
import java.util.Map;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.manifests.InvalidManifestException;
import dev.taskgov.manifests.ManifestTranslator;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * Turns a governed job (read as a generic resource) into a {@link WorkloadSubmitted}, or says why it
 * cannot. The translation is {@link ManifestTranslator}'s, the same as {@code taskgov dry-run/submit -f};
 * what is the watcher's own: the workload id (team, name and UID), the team's configured instance type
 * as the default, the job's creation time as the submission time, and two refusals (a job without a
 * queue label, a job that requests nothing the quota can count).
 */
public final class JobTranslator {

    public static final String QUEUE_LABEL = ManifestTranslator.QUEUE_LABEL;
    public static final String PRIORITY_LABEL = ManifestTranslator.PRIORITY_LABEL;
    public static final String REQUIRED_TOPOLOGY = ManifestTranslator.REQUIRED_TOPOLOGY;
    public static final String PREFERRED_TOPOLOGY = ManifestTranslator.PREFERRED_TOPOLOGY;
    public static final String INSTANCE_TYPE_LABEL = ManifestTranslator.INSTANCE_TYPE_LABEL;

    /** What a job translates to. */
    public sealed interface Translation {
    }

    /** A valid job: publish this submission. */
    public record Submit(WorkloadSubmitted submission) implements Translation {
    }

    /** A job taskgov cannot govern as written; {@code reason} is a CamelCase Kubernetes Event reason. */
    public record Invalid(String reason, String message) implements Translation {
    }

    private final String namespacePrefix;
    private final Map<String, String> teamInstanceTypes;
    private final Clock clock;

    public JobTranslator(String namespacePrefix, Map<String, String> teamInstanceTypes, Clock clock) {
        this.namespacePrefix = namespacePrefix;
        this.teamInstanceTypes = teamInstanceTypes;
        this.clock = clock;
    }

    /**
     * The workload id of a job: stable across restarts (team, name and the first 8 characters of the
     * UID). Kubernetes names are already lowercase {@code [a-z0-9.-]}, so the id follows
     * {@link WorkloadIds} once it is short enough: a long team + name is cut (the UID part, which
     * tells jobs of one name apart, is kept) to {@link WorkloadIds#MAX_LENGTH} characters.
     */
    public String workloadId(GenericKubernetesResource job) {
        String uid = job.getMetadata().getUid() == null ? "" : job.getMetadata().getUid();
        String shortUid = uid.length() > 8 ? uid.substring(0, 8) : uid;
        String suffix = shortUid.isEmpty() ? "" : "-" + shortUid;
        String head = team(job.getMetadata().getNamespace()) + "-" + job.getMetadata().getName();
        int room = WorkloadIds.MAX_LENGTH - suffix.length();
        if (head.length() > room) {
            head = head.substring(0, room);
            // the cut may end on a separator; the rule wants the id to end alphanumeric
            while (!head.isEmpty() && !Character.isLetterOrDigit(head.charAt(head.length() - 1))) {
                head = head.substring(0, head.length() - 1);
            }
        }
        return head + suffix;
    }

    /**
     * A job's team: its namespace's ({@code hyperpod-ns-<team>}), never what a label or annotation of the job
     * claims. The namespace is what the cluster's RBAC authorizes (deploy/k8s/teams: a team's group creates jobs only
     * in its own namespace), so the team cannot be forged by the job's author.
     */
    public String team(String namespace) {
        return namespace.startsWith(namespacePrefix) ? namespace.substring(namespacePrefix.length()) : namespace;
    }

    public boolean governedNamespace(String namespace) {
        return namespace != null && namespace.startsWith(namespacePrefix) && namespace.length() > namespacePrefix.length();
    }

    public Translation translate(JobKind kind, GenericKubernetesResource job) {
        Map<String, String> labels = job.getMetadata().getLabels() == null ? Map.of() : job.getMetadata().getLabels();
        String queue = labels.get(QUEUE_LABEL);
        if (queue == null || queue.isBlank()) {
            return new Invalid("MissingQueueName", "label " + QUEUE_LABEL + " is required on jobs in namespace "
                    + job.getMetadata().getNamespace() + " (e.g. " + job.getMetadata().getNamespace() + "-localqueue)");
        }
        String team = team(job.getMetadata().getNamespace());
        Instant submittedAt = job.getMetadata().getCreationTimestamp() == null ? clock.instant()
                : Instant.parse(job.getMetadata().getCreationTimestamp());
        WorkloadSubmitted submission;
        try {
            submission = ManifestTranslator.translate(kind.shape(), job,
                    new ManifestTranslator.Overrides(workloadId(job), null, null, null, teamInstanceTypes.get(team)), submittedAt).submission();
        } catch (InvalidManifestException e) {
            String message = e.reason().equals("UnknownInstanceType")
                    ? e.getMessage() + " (team " + team + " has no single configured instance type)" : e.getMessage();
            return new Invalid(e.reason(), message);
        }
        if (submission.podSets().stream().allMatch(p -> p.requests().accelerators() == null && p.requests().vcpu() == null
                && p.requests().memoryGiB() == null && p.requests().partitions() == null)) {
            return new Invalid("NoRequests", "every container requests zero resources: set resources.requests "
                    + "(nvidia.com/gpu, nvidia.com/mig-<profile>, aws.amazon.com/neuron, cpu, memory) so the quota can count the job");
        }
        return new Submit(submission);
    }
}
