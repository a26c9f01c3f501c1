package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;

import java.io.IOException;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Translates a Kueue-labelled Kubernetes manifest (a batch/v1 {@code Job}, or a Kubeflow
 * {@code PyTorchJob}, {@code TFJob} or {@code MPIJob}) into a {@link WorkloadSubmitted}, the way Kueue
 * builds a Workload from it: the namespace names the team, {@code kueue.x-k8s.io/queue-name} and
 * {@code kueue.x-k8s.io/priority-class} labels, one pod set per Job ({@code main}) or per replica type
 * ({@code master}, {@code worker}), topology from the pod template annotations, per-pod requests summed
 * over containers (a limit stands for a missing request, as in Kubernetes), the instance type from the
 * {@code node.kubernetes.io/instance-type} node selector, every other node selector label as the pod
 * set's {@code nodeSelector} (a hard constraint on placement, such as seed 000's pinned rack).
 */
final class ManifestTranslator {

    static final String QUEUE_LABEL = "kueue.x-k8s.io/queue-name";
    static final String PRIORITY_LABEL = "kueue.x-k8s.io/priority-class";
    static final String REQUIRED_TOPOLOGY = "kueue.x-k8s.io/podset-required-topology";
    static final String PREFERRED_TOPOLOGY = "kueue.x-k8s.io/podset-preferred-topology";
    static final List<String> INSTANCE_TYPE_SELECTORS = List.of("node.kubernetes.io/instance-type", "beta.kubernetes.io/instance-type");
    static final List<String> ACCELERATOR_RESOURCES = List.of("nvidia.com/gpu", "aws.amazon.com/neuron", "aws.amazon.com/neurondevice");

    private static final Map<String, String> REPLICA_SPECS = Map.of(
            "PyTorchJob", "pytorchReplicaSpecs", "TFJob", "tfReplicaSpecs", "MPIJob", "mpiReplicaSpecs");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    /** The submission and what of the manifest taskgov does not model (for stderr). */
    record Translation(WorkloadSubmitted submission, List<String> warnings) {
    }

    /** Values from flags: each non-null one wins over the manifest ({@code instanceType} only fills a gap). */
    record Overrides(String workloadId, String namespace, String queueName, String priorityClass, String instanceType) {
        static final Overrides NONE = new Overrides(null, null, null, null, null);
    }

    private final List<String> warnings = new ArrayList<>();
    private final Overrides overrides;

    private ManifestTranslator(Overrides overrides) {
        this.overrides = overrides;
    }

    /** Reads YAML (or JSON) text; the first document is the manifest. */
    static Translation translate(String yaml, Overrides overrides, Instant submittedAt) {
        JsonNode root;
        try {
            root = YAML.readTree(yaml);
        } catch (IOException e) {
            throw CliException.invalid("the manifest is not valid YAML: " + firstLine(e.getMessage()));
        }
        if (root == null || !root.isObject()) throw CliException.invalid("the manifest must be a YAML mapping (a Job or PyTorchJob)");
        ManifestTranslator t = new ManifestTranslator(overrides);
        return new Translation(t.workload(root, submittedAt), List.copyOf(t.warnings));
    }

    private WorkloadSubmitted workload(JsonNode root, Instant submittedAt) {
        String kind = root.path("kind").asText("");
        JsonNode metadata = root.path("metadata");
        String name = pick(overrides.workloadId(), text(metadata, "name"));
        if (name == null) throw CliException.invalid("metadata.name: required (or give --job-name)");
        String namespace = pick(overrides.namespace(), text(metadata, "namespace"));
        if (namespace == null) throw CliException.invalid("metadata.namespace: required, the team's namespace such as hyperpod-ns-team-a (or give --namespace)");
        JsonNode labels = metadata.path("labels");
        List<PodSetSpec> podSets = new ArrayList<>();
        String templateQueue;
        if (kind.equals("Job")) {
            JsonNode spec = root.path("spec");
            int parallelism = spec.has("parallelism") ? count("spec.parallelism", spec.get("parallelism")) : 1;
            podSets.add(podSet("main", parallelism, spec.path("template"), "spec.template"));
            templateQueue = text(spec.path("template").path("metadata").path("labels"), QUEUE_LABEL);
        } else if (REPLICA_SPECS.containsKey(kind)) {
            String specsField = REPLICA_SPECS.get(kind);
            JsonNode replicaSpecs = root.path("spec").path(specsField);
            if (!replicaSpecs.isObject() || replicaSpecs.isEmpty()) {
                throw CliException.invalid("spec." + specsField + ": required, with at least one replica type (Master, Worker)");
            }
            templateQueue = null;
            for (Iterator<Map.Entry<String, JsonNode>> it = replicaSpecs.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                String path = "spec." + specsField + "." + e.getKey();
                JsonNode replica = e.getValue();
                int replicas = replica.has("replicas") ? count(path + ".replicas", replica.get("replicas")) : 1;
                podSets.add(podSet(e.getKey().toLowerCase(Locale.ROOT), replicas, replica.path("template"), path + ".template"));
                if (templateQueue == null) templateQueue = text(replica.path("template").path("metadata").path("labels"), QUEUE_LABEL);
            }
        } else {
            throw CliException.invalid("kind: '" + kind + "' is not supported; give a batch/v1 Job or a PyTorchJob (also TFJob, MPIJob)");
        }
        String queue = pick(overrides.queueName(), pick(text(labels, QUEUE_LABEL), templateQueue));
        if (queue == null) {
            warnings.add("metadata.labels: no " + QUEUE_LABEL + "; using " + namespace + "-localqueue");
            queue = namespace + "-localqueue";
        }
        String priority = pick(overrides.priorityClass(), text(labels, PRIORITY_LABEL));
        return new WorkloadSubmitted(name, namespace, queue, priority, kind, submittedAt, podSets);
    }

    private PodSetSpec podSet(String name, int count, JsonNode template, String path) {
        JsonNode annotations = template.path("metadata").path("annotations");
        String required = text(annotations, REQUIRED_TOPOLOGY);
        String preferred = text(annotations, PREFERRED_TOPOLOGY);
        JsonNode podSpec = template.path("spec");
        JsonNode selector = podSpec.path("nodeSelector");
        String instanceType = null;
        for (String key : INSTANCE_TYPE_SELECTORS) instanceType = pick(instanceType, text(selector, key));
        instanceType = pick(instanceType, overrides.instanceType());
        if (instanceType == null) {
            throw CliException.invalid(path + ".spec.nodeSelector: no node.kubernetes.io/instance-type; add it or give --instance-type");
        }
        // Every other label is a hard constraint on the nodes (seed 000 pins a rack by its layer-3 label).
        Map<String, String> nodeSelector = new java.util.TreeMap<>();
        for (Iterator<String> it = selector.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (INSTANCE_TYPE_SELECTORS.contains(key)) continue;
            String value = text(selector, key);
            if (value == null || value.isBlank()) {
                throw CliException.invalid(path + ".spec.nodeSelector." + key + ": must not be empty");
            }
            nodeSelector.put(key, value);
        }
        BigDecimal accelerators = BigDecimal.ZERO;
        BigDecimal cpu = BigDecimal.ZERO;
        BigDecimal memory = BigDecimal.ZERO;
        JsonNode containers = podSpec.path("containers");
        for (int i = 0; i < containers.size(); i++) {
            String cPath = path + ".spec.containers[" + i + "].resources";
            JsonNode resources = containers.get(i).path("resources");
            for (String acc : ACCELERATOR_RESOURCES) {
                String v = request(resources, acc);
                if (v != null) accelerators = accelerators.add(Quantities.whole(cPath + "." + acc, v));
            }
            String c = request(resources, "cpu");
            if (c != null) cpu = cpu.add(Quantities.cpu(cPath + ".cpu", c));
            String m = request(resources, "memory");
            if (m != null) memory = memory.add(Quantities.memoryGiB(cPath + ".memory", m, false));
        }
        ResourceAmounts requests = new ResourceAmounts(nonZero(accelerators), nonZero(cpu), nonZero(memory));
        return new PodSetSpec(name, count, instanceType, requests, required, preferred, nodeSelector);
    }

    /** The request, else the limit (Kubernetes defaults a missing request to its limit). */
    private static String request(JsonNode resources, String name) {
        String r = text(resources.path("requests"), name);
        return r != null ? r : text(resources.path("limits"), name);
    }

    private static int count(String field, JsonNode n) {
        if (!n.canConvertToInt() || !n.isIntegralNumber()) throw CliException.invalid(field + ": must be a whole number, was " + n);
        return n.asInt();
    }

    private static BigDecimal nonZero(BigDecimal v) {
        return v.signum() == 0 ? null : Quantities.normal(v);
    }

    private static String text(JsonNode parent, String field) {
        JsonNode n = parent.get(field);
        return n == null || n.isNull() || n.asText().isBlank() ? null : n.asText();
    }

    private static String pick(String first, String second) {
        return first != null ? first : second;
    }

    private static String firstLine(String s) {
        return s == null ? "" : s.lines().findFirst().orElse("");
    }
}
