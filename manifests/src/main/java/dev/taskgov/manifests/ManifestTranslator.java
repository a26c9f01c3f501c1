package dev.taskgov.manifests;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The one translation of a Kueue-labelled Kubernetes job (a batch/v1 {@code Job}, a Kubeflow
 * {@code PyTorchJob}, {@code MPIJob} or {@code TFJob}, or a {@code HyperPodPyTorchJob}) into a
 * {@link WorkloadSubmitted}, the way Kueue builds a Workload from it. The CLI ({@code taskgov dry-run/submit -f},
 * and {@code create hyp-pytorch-job} for the job its flags describe) and the job watcher use it, so a manifest means
 * the same to both:
 * <ul>
 *   <li>the namespace names the team; the {@code kueue.x-k8s.io/queue-name} label (on the job, else on
 *       the first pod template) the queue, {@code <namespace>-localqueue} with a warning when neither has
 *       it; {@code kueue.x-k8s.io/priority-class} the priority class;</li>
 *   <li>one pod set {@code main} for a Job ({@code parallelism} pods, default 1), one per replica spec
 *       in lower case for the other kinds ({@code replicas}, default 1, plus HyperPod's {@code spares});</li>
 *   <li>per pod set: the instance type from the {@code node.kubernetes.io/instance-type} (or
 *       {@code beta.kubernetes.io/instance-type}) node selector, else the caller's default; every other
 *       node selector label as the pod set's {@code nodeSelector} (a hard placement constraint); the
 *       topology level from the {@code kueue.x-k8s.io/podset-required-topology} or
 *       {@code -preferred-topology} annotation (one of them at most); the per-pod requests as
 *       {@link PodRequests} counts them;</li>
 *   <li>the containers' images, as the annotation {@link WorkloadSubmitted#IMAGE_ANNOTATION} (recorded, not
 *       decided on);</li>
 *   <li>the job's {@link WorkloadSubmitted#EXPECTED_RUNTIME_ANNOTATION} annotation, as it is (start estimates read
 *       it).</li>
 * </ul>
 * Every refusal is an {@link InvalidManifestException} naming the field's path and the rule.
 *
 * <p>A replica spec's (or a Job's) {@code template} is read as it comes: a map, as a manifest or the API server gives it,
 * is bound to fabric8's {@link PodTemplateSpec} (Jackson); a {@link PodTemplateSpec} already, as a job built in code
 * carries it ({@code taskgov create hyp-pytorch-job} builds its HyperPodPyTorchJob so), is taken as it is. The rules
 * above then read the same typed template either way. Binding a map makes Jackson introspect the whole pod model
 * (hundreds of fabric8 classes), a cost a short-lived CLI command need not pay for a job it built (docs/benchmarks.md, "CLI start time").
 */
public final class ManifestTranslator {

    public static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    public static final String PRIORITY_LABEL = "kueue.x-k8s.io/priority-class";
    public static final String REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology";
    public static final String PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology";
    public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";
    static final List<String> INSTANCE_TYPE_LABELS = List.of(INSTANCE_TYPE_LABEL, "beta.kubernetes.io/instance-type");

    /** fabric8's mapper, made on the first manifest read from text or with a template map (not for a job built in code). */
    private static final class Serialization {
        static final KubernetesSerialization INSTANCE = new KubernetesSerialization();
    }

    /** The submission and what of the manifest taskgov does not model or had to assume (for the user). */
    public record Translation(WorkloadSubmitted submission, List<String> warnings) {
    }

    /**
     * What the caller knows better than the manifest: each of {@code workloadId}, {@code namespace},
     * {@code queueName}, {@code priorityClass} that is non-null wins over the manifest's;
     * {@code instanceType} only fills a pod template that names none.
     */
    public record Overrides(String workloadId, String namespace, String queueName, String priorityClass, String instanceType) {
        public static final Overrides NONE = new Overrides(null, null, null, null, null);
    }

    private final Overrides overrides;
    private final List<String> warnings = new ArrayList<>();

    private ManifestTranslator(Overrides overrides) {
        this.overrides = overrides;
    }

    /**
     * Reads a manifest from YAML or JSON text.
     *
     * @throws InvalidManifestException when the text is not a Kubernetes object
     */
    public static GenericKubernetesResource parse(String yaml) {
        GenericKubernetesResource job;
        try {
            job = Serialization.INSTANCE.unmarshal(yaml, GenericKubernetesResource.class);
        } catch (RuntimeException e) {
            throw new InvalidManifestException("InvalidYaml", "the manifest is not valid YAML: " + firstLine(e.getMessage()));
        }
        if (job == null) throw new InvalidManifestException("InvalidYaml", "the manifest is empty; give a Job, PyTorchJob, MPIJob, TFJob or HyperPodPyTorchJob");
        return job;
    }

    /**
     * Translates a job.
     *
     * @param submittedAt when the workload counts as submitted (the caller's clock, or the job's creation time)
     * @throws InvalidManifestException when the job breaks a rule above
     */
    public static Translation translate(GenericKubernetesResource job, Overrides overrides, Instant submittedAt) {
        ManifestKind kind = ManifestKind.ofKind(job.getKind());
        if (kind == null) {
            throw new InvalidManifestException("UnsupportedKind", "kind: '" + job.getKind() + "' is not supported; give a batch/v1 Job, "
                    + "a PyTorchJob, MPIJob or TFJob (kubeflow.org/v1) or a HyperPodPyTorchJob (sagemaker.amazonaws.com/v1)");
        }
        return translate(kind, job, overrides, submittedAt);
    }

    /**
     * Translates a job known to be of {@code kind} (objects read from a list may leave their kind out).
     *
     * @throws InvalidManifestException when the job breaks a rule above
     */
    public static Translation translate(ManifestKind kind, GenericKubernetesResource job, Overrides overrides, Instant submittedAt) {
        ManifestTranslator t = new ManifestTranslator(overrides);
        return new Translation(t.workload(kind, job, submittedAt), List.copyOf(t.warnings));
    }

    private WorkloadSubmitted workload(ManifestKind kind, GenericKubernetesResource job, Instant submittedAt) {
        ObjectMeta metadata = job.getMetadata() == null ? new ObjectMeta() : job.getMetadata();
        String name = pick(overrides.workloadId(), blankToNull(metadata.getName()));
        if (name == null) throw new InvalidManifestException("InvalidSpec", "metadata.name: required");
        String namespace = pick(overrides.namespace(), blankToNull(metadata.getNamespace()));
        if (namespace == null) {
            throw new InvalidManifestException("InvalidSpec", "metadata.namespace: required, the team's namespace such as hyperpod-ns-team-a");
        }
        Map<String, String> labels = metadata.getLabels() == null ? Map.of() : metadata.getLabels();
        Map<String, Object> spec = ManifestKind.map(job.getAdditionalProperties().get("spec"));
        List<PodSetSpec> podSets = new ArrayList<>();
        List<PodTemplateSpec> templates = new ArrayList<>();
        if (kind.replicaSpecsField() == null) {
            int count = ManifestKind.wholeNumber(spec.get("parallelism"), 1, "spec.parallelism");
            templates.add(template(spec.get("template"), "spec.template"));
            podSets.add(podSet("main", count, templates.get(0), "spec.template"));
        } else {
            Map<String, ManifestKind.ReplicaSpec> replicaSpecs = kind.replicaSpecs(spec);
            if (replicaSpecs.isEmpty()) {
                throw new InvalidManifestException("InvalidSpec", "spec." + kind.replicaSpecsField()
                        + ": required, with at least one replica spec (such as Master, Worker)");
            }
            for (Map.Entry<String, ManifestKind.ReplicaSpec> e : replicaSpecs.entrySet()) {
                ManifestKind.ReplicaSpec replica = e.getValue();
                String path = replica.path() + ".template";
                PodTemplateSpec template = template(replica.fields().get("template"), path);
                templates.add(template);
                podSets.add(podSet(e.getKey(), replica.pods(), template, path));
            }
        }
        String queue = pick(overrides.queueName(), pick(blankToNull(labels.get(QUEUE_LABEL)), templateQueue(templates)));
        if (queue == null) {
            queue = namespace + "-localqueue";
            warnings.add("metadata.labels: no " + QUEUE_LABEL + "; using " + queue);
        }
        String priority = pick(overrides.priorityClass(), blankToNull(labels.get(PRIORITY_LABEL)));
        String images = images(templates);
        Map<String, String> annotations = new java.util.TreeMap<>();
        if (images != null) annotations.put(WorkloadSubmitted.IMAGE_ANNOTATION, images);
        // The job's own annotation, passed on as it is: the submission's validation names it if it is no duration.
        String runtime = metadata.getAnnotations() == null ? null : metadata.getAnnotations().get(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION);
        if (runtime != null) annotations.put(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, runtime);
        return new WorkloadSubmitted(name, namespace, queue, priority, kind.kind(), submittedAt, List.copyOf(podSets), annotations);
    }

    /** The containers' images (not the init containers'), each once, in the manifest's order, comma-separated; null when none. */
    private static String images(List<PodTemplateSpec> templates) {
        java.util.Set<String> images = new java.util.LinkedHashSet<>();
        for (PodTemplateSpec t : templates) {
            if (t.getSpec() == null || t.getSpec().getContainers() == null) continue;
            t.getSpec().getContainers().forEach(c -> {
                if (c.getImage() != null && !c.getImage().isBlank()) images.add(c.getImage());
            });
        }
        return images.isEmpty() ? null : String.join(",", images);
    }

    /** The template as the rules read it: a typed one as it is, a map (or nothing) bound to fabric8's model. */
    private static PodTemplateSpec template(Object templateMap, String path) {
        if (templateMap instanceof PodTemplateSpec typed) return typed;
        try {
            PodTemplateSpec t = Serialization.INSTANCE.convertValue(templateMap == null ? Map.of() : templateMap, PodTemplateSpec.class);
            return t == null ? new PodTemplateSpec() : t;
        } catch (IllegalArgumentException e) {
            throw new InvalidManifestException("InvalidSpec", path + ": not a pod template: " + firstLine(e.getMessage()));
        }
    }

    private PodSetSpec podSet(String name, int count, PodTemplateSpec template, String path) {
        if (count < 1) {
            throw new InvalidManifestException("InvalidSpec", path + ": the pod count must be at least 1, was " + count);
        }
        Map<String, String> annotations = template.getMetadata() == null || template.getMetadata().getAnnotations() == null
                ? Map.of() : template.getMetadata().getAnnotations();
        String required = level(annotations.get(REQUIRED_TOPOLOGY), path + ".metadata.annotations." + REQUIRED_TOPOLOGY);
        String preferred = level(annotations.get(PREFERRED_TOPOLOGY), path + ".metadata.annotations." + PREFERRED_TOPOLOGY);
        if (required != null && preferred != null) {
            throw new InvalidManifestException("InvalidTopology", path + ": give either " + REQUIRED_TOPOLOGY + " or "
                    + PREFERRED_TOPOLOGY + ", not both");
        }
        Map<String, String> nodeSelector = template.getSpec() == null || template.getSpec().getNodeSelector() == null
                ? Map.of() : template.getSpec().getNodeSelector();
        String instanceType = null;
        for (String label : INSTANCE_TYPE_LABELS) instanceType = pick(instanceType, blankToNull(nodeSelector.get(label)));
        instanceType = pick(instanceType, overrides.instanceType());
        if (instanceType == null) {
            throw new InvalidManifestException("UnknownInstanceType", path + ".spec.nodeSelector: no " + INSTANCE_TYPE_LABEL
                    + " label, and no default instance type for the team");
        }
        // Every other label is a hard constraint on the nodes (seed 000 pins a rack by its layer-3 label).
        Map<String, String> pinned = new TreeMap<>();
        nodeSelector.forEach((key, value) -> {
            if (INSTANCE_TYPE_LABELS.contains(key)) return;
            if (value == null || value.isBlank()) {
                throw new InvalidManifestException("InvalidSpec", path + ".spec.nodeSelector." + key + ": must not be empty");
            }
            pinned.put(key, value);
        });
        return new PodSetSpec(name, count, instanceType, PodRequests.of(template.getSpec(), path + ".spec"), required, preferred, pinned);
    }

    private static String templateQueue(List<PodTemplateSpec> templates) {
        for (PodTemplateSpec t : templates) {
            if (t.getMetadata() != null && t.getMetadata().getLabels() != null) {
                String q = blankToNull(t.getMetadata().getLabels().get(QUEUE_LABEL));
                if (q != null) return q;
            }
        }
        return null;
    }

    private static String level(String value, String path) {
        if (value == null) return null;
        String v = value.trim();
        if (!TopologyLevels.isKnown(v)) {
            throw new InvalidManifestException("InvalidTopology", path + ": unknown topology level '" + value + "', expected one of "
                    + TopologyLevels.ALL);
        }
        return v;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s;
    }

    private static String pick(String first, String second) {
        return first != null ? first : second;
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
