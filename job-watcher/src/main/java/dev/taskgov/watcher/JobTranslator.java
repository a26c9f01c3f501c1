package dev.taskgov.watcher;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIds;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * Translates a governed job (a batch/v1 Job or a Kubeflow job, read as a generic resource) into a
 * {@link WorkloadSubmitted}, or says why it cannot: the same rules as the CLI's manifest translator
 * (pod set {@code main} for a Job, one pod set per replica spec in lower case for Kubeflow jobs; the
 * pod template's node selector, but for the instance-type label, becomes the pod set's
 * {@code nodeSelector}, a hard constraint on placement).
 */
public final class JobTranslator {

    public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String PRIORITY_LABEL = "kueue.x-k8s.io/priority-class";
    public static final String REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";

    static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
    private static final BigDecimal MIB = BigDecimal.valueOf(1024L * 1024L);
    private static final BigDecimal GIB_IN_MIB = BigDecimal.valueOf(1024);
    private static final BigDecimal THOUSAND = BigDecimal.valueOf(1000);

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
        List<PodSetSpec> podSets = new ArrayList<>();
        Map<String, Object> spec = JobMaps.map(job.getAdditionalProperties().get("spec"));
        try {
            if (kind.replicaSpecsField() == null) {
                Object parallelism = spec.get("parallelism");
                int count = parallelism == null ? 1 : ((Number) parallelism).intValue();
                podSets.add(podSet("main", count, spec.get("template"), "spec.template", team));
            } else {
                Map<String, JobKind.ReplicaSpec> replicaSpecs = kind.replicaSpecs(spec);
                if (replicaSpecs.isEmpty()) {
                    return new Invalid("InvalidSpec", "spec." + kind.replicaSpecsField() + " names no replica spec");
                }
                for (Map.Entry<String, JobKind.ReplicaSpec> e : replicaSpecs.entrySet()) {
                    JobKind.ReplicaSpec replica = e.getValue();
                    podSets.add(podSet(e.getKey(), replica.pods(), replica.fields().get("template"), replica.path() + ".template", team));
                }
            }
        } catch (InvalidJob e) {
            return new Invalid(e.reason, e.getMessage());
        } catch (ClassCastException e) {
            return new Invalid("InvalidSpec", "replicas/parallelism must be integers: " + e.getMessage());
        }
        if (podSets.stream().allMatch(p -> p.requests().accelerators() == null && p.requests().vcpu() == null
                && p.requests().memoryGiB() == null)) {
            return new Invalid("NoRequests", "every container requests zero resources: set resources.requests "
                    + "(nvidia.com/gpu, aws.amazon.com/neuron, cpu, memory) so the quota can count the job");
        }
        Instant submittedAt = job.getMetadata().getCreationTimestamp() == null ? clock.instant()
                : Instant.parse(job.getMetadata().getCreationTimestamp());
        return new Submit(new WorkloadSubmitted(workloadId(job), job.getMetadata().getNamespace(), queue,
                labels.get(PRIORITY_LABEL), kind.kind(), submittedAt, List.copyOf(podSets)));
    }

    private PodSetSpec podSet(String name, int count, Object templateMap, String path, String team) {
        if (count < 1) {
            throw new InvalidJob("InvalidSpec", path + ": the pod count must be at least 1, was " + count);
        }
        PodTemplateSpec template = SERIALIZATION.convertValue(templateMap == null ? Map.of() : templateMap, PodTemplateSpec.class);
        Map<String, String> annotations = template.getMetadata() == null || template.getMetadata().getAnnotations() == null
                ? Map.of() : template.getMetadata().getAnnotations();
        Map<String, String> nodeSelector = template.getSpec() == null || template.getSpec().getNodeSelector() == null
                ? Map.of() : template.getSpec().getNodeSelector();
        String required = level(annotations.get(REQUIRED_TOPOLOGY), path + ".metadata.annotations." + REQUIRED_TOPOLOGY);
        String preferred = level(annotations.get(PREFERRED_TOPOLOGY), path + ".metadata.annotations." + PREFERRED_TOPOLOGY);
        if (required != null && preferred != null) {
            throw new InvalidJob("InvalidTopology", path + ": give either " + REQUIRED_TOPOLOGY + " or "
                    + PREFERRED_TOPOLOGY + ", not both");
        }
        String instanceType = nodeSelector.get(INSTANCE_TYPE_LABEL);
        if (instanceType == null) instanceType = teamInstanceTypes.get(team);
        if (instanceType == null) {
            throw new InvalidJob("UnknownInstanceType", path + ".spec.nodeSelector: set " + INSTANCE_TYPE_LABEL
                    + " (team " + team + " has no single configured instance type)");
        }
        // Every other label is a hard constraint on the nodes (seed 000 pins a rack by its layer-3 label);
        // the instance-type label is the pod set's instance type.
        Map<String, String> pinned = new java.util.TreeMap<>(nodeSelector);
        pinned.remove(INSTANCE_TYPE_LABEL);
        for (Map.Entry<String, String> e : pinned.entrySet()) {
            if (e.getValue() == null || e.getValue().isBlank()) {
                throw new InvalidJob("InvalidSpec", path + ".spec.nodeSelector." + e.getKey() + ": must not be empty");
            }
        }
        return new PodSetSpec(name, count, instanceType, requests(template, path), required, preferred, pinned);
    }

    private static String level(String value, String path) {
        if (value == null) return null;
        String v = value.trim();
        if (!TopologyLevels.isKnown(v)) {
            throw new InvalidJob("InvalidTopology", path + ": unknown topology level '" + value + "', expected one of "
                    + TopologyLevels.ALL);
        }
        return v;
    }

    /** Per-pod requests: the sum over containers, at least the largest init container (as Kubernetes counts them). */
    private static ResourceAmounts requests(PodTemplateSpec template, String path) {
        BigDecimal[] sum = {BigDecimal.ZERO, BigDecimal.ZERO, BigDecimal.ZERO};
        if (template.getSpec() == null) return new ResourceAmounts(null, null, null);
        for (Container c : template.getSpec().getContainers()) {
            BigDecimal[] r = containerRequests(c, path);
            for (int i = 0; i < 3; i++) sum[i] = sum[i].add(r[i]);
        }
        for (Container c : template.getSpec().getInitContainers()) {
            BigDecimal[] r = containerRequests(c, path);
            for (int i = 0; i < 3; i++) sum[i] = sum[i].max(r[i]);
        }
        return new ResourceAmounts(nonZero(sum[0]), nonZero(sum[1]), nonZero(sum[2]));
    }

    private static BigDecimal[] containerRequests(Container c, String path) {
        Map<String, Quantity> requests = c.getResources() == null || c.getResources().getRequests() == null
                ? Map.of() : c.getResources().getRequests();
        Map<String, Quantity> limits = c.getResources() == null || c.getResources().getLimits() == null
                ? Map.of() : c.getResources().getLimits();
        String cpath = path + ".spec.containers[" + c.getName() + "].resources";
        BigDecimal accelerators = amount(requests, limits, "nvidia.com/gpu", cpath)
                .add(amount(requests, limits, "aws.amazon.com/neuron", cpath));
        // vCPU to whole milli-vCPU and memory to whole MiB, rounded up: the stored units (design.md).
        BigDecimal vcpu = amount(requests, limits, "cpu", cpath).multiply(THOUSAND).setScale(0, RoundingMode.CEILING)
                .divide(THOUSAND).stripTrailingZeros();
        BigDecimal memory = amount(requests, limits, "memory", cpath).divide(MIB, 0, RoundingMode.CEILING)
                .divide(GIB_IN_MIB).stripTrailingZeros();
        return new BigDecimal[] {accelerators, vcpu, memory};
    }

    private static BigDecimal amount(Map<String, Quantity> requests, Map<String, Quantity> limits, String name, String path) {
        Quantity q = requests.containsKey(name) ? requests.get(name) : limits.get(name);
        if (q == null) return BigDecimal.ZERO;
        BigDecimal v;
        try {
            v = q.getNumericalAmount();
        } catch (IllegalArgumentException e) {
            throw new InvalidJob("InvalidSpec", path + "." + name + ": not a quantity: " + q);
        }
        if (v.signum() < 0) throw new InvalidJob("InvalidSpec", path + "." + name + ": must not be negative, was " + q);
        return v;
    }

    private static BigDecimal nonZero(BigDecimal v) {
        return v.signum() == 0 ? null : v.stripTrailingZeros().scale() < 0 ? v.setScale(0) : v.stripTrailingZeros();
    }

    private static final class InvalidJob extends RuntimeException {
        final String reason;

        InvalidJob(String reason, String message) {
            super(message);
            this.reason = reason;
        }
    }
}
