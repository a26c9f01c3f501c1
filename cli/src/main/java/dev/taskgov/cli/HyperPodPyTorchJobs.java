package dev.taskgov.cli;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The {@code HyperPodPyTorchJob} ({@code sagemaker.amazonaws.com/v1}) that {@code hyp create
 * hyp-pytorch-job} flags describe: one entry "pod" in {@code spec.replicaSpecs} with
 * {@code --node-count} replicas, {@code spec.nprocPerNode}, {@code spec.runPolicy.jobMaxRetryCount},
 * the Kueue labels on the job and its pod template, the topology annotation on the pod template.
 *
 * <p>Built in code on fabric8's model: the replica spec's {@code template} is a typed {@link PodTemplateSpec}, so the
 * shared manifests translator reads it as it is (no Jackson binding, whose introspection of the pod model was most of
 * the command's own time, docs/benchmarks.md, "CLI start time"), and the same object is what {@code --print-manifest} and
 * {@code -o yaml} print and what {@code --kubernetes} creates.
 */
final class HyperPodPyTorchJobs {

    static final String API_VERSION = "sagemaker.amazonaws.com/v1";
    static final String KIND = "HyperPodPyTorchJob";

    private HyperPodPyTorchJobs() {
    }

    static GenericKubernetesResource manifest(HypPyTorchJobFlags f, WorkloadSubmitted w) {
        PodSetSpec pods = w.podSets().get(0);
        GenericKubernetesResource job = new GenericKubernetesResource();
        job.setApiVersion(API_VERSION);
        job.setKind(KIND);
        ObjectMeta metadata = new ObjectMeta();
        metadata.setName(w.workloadId());
        metadata.setNamespace(w.namespace());
        metadata.setLabels(kueueLabels(w));
        job.setMetadata(metadata);
        Map<String, Object> spec = new LinkedHashMap<>();
        if (f.tasksPerNode != null) spec.put("nprocPerNode", f.tasksPerNode);
        if (f.maxRetry != null) {
            Map<String, Object> runPolicy = new LinkedHashMap<>();
            runPolicy.put("cleanPodPolicy", "None");
            runPolicy.put("jobMaxRetryCount", f.maxRetry);
            spec.put("runPolicy", runPolicy);
        }
        Map<String, Object> replica = new LinkedHashMap<>();
        replica.put("name", pods.name());
        replica.put("replicas", pods.count());
        replica.put("template", template(f, w, pods));
        spec.put("replicaSpecs", List.of(replica));
        job.setAdditionalProperty("spec", spec);
        return job;
    }

    private static PodTemplateSpec template(HypPyTorchJobFlags f, WorkloadSubmitted w, PodSetSpec pods) {
        ObjectMeta metadata = new ObjectMeta();
        metadata.setLabels(kueueLabels(w));
        Map<String, String> annotations = new LinkedHashMap<>();
        if (pods.preferredTopology() != null) annotations.put("kueue.x-k8s.io/podset-preferred-topology", pods.preferredTopology());
        if (pods.requiredTopology() != null) annotations.put("kueue.x-k8s.io/podset-required-topology", pods.requiredTopology());
        if (!annotations.isEmpty()) metadata.setAnnotations(annotations);
        PodSpec podSpec = new PodSpec();
        Map<String, String> selector = new LinkedHashMap<>();
        if (pods.instanceType() != null) selector.put("node.kubernetes.io/instance-type", pods.instanceType());
        selector.putAll(pods.nodeSelector());
        podSpec.setNodeSelector(selector);
        podSpec.setServiceAccountName(f.serviceAccountName);
        podSpec.setSchedulerName(f.schedulerType);
        Container container = new Container();
        container.setName("pytorch-job-container");
        container.setImage(f.image);
        container.setImagePullPolicy(f.pullPolicy);
        if (f.command != null) container.setCommand(HypPyTorchJobFlags.jsonList("--command", f.command));
        if (f.args != null) container.setArgs(HypPyTorchJobFlags.jsonList("--args", f.args));
        if (f.environment != null) {
            container.setEnv(HypPyTorchJobFlags.jsonObject("--environment", f.environment).entrySet().stream()
                    .map(e -> new EnvVar(e.getKey(), e.getValue(), null)).toList());
        }
        String accelerator = acceleratorResource(pods.instanceType());
        Map<String, Quantity> limits = resources(accelerator, f.acceleratorsLimit, f.vcpuLimit, f.memoryLimit);
        Map<String, Quantity> requests = resources(accelerator, f.accelerators, f.vcpu, f.memory);
        if (f.acceleratorPartitionType != null) {
            // hyp's --accelerator-partition-*: the device plugin's MIG resource, nvidia.com/<profile>
            String partition = "nvidia.com/" + f.acceleratorPartitionType;
            if (f.acceleratorPartitionLimit != null) limits.put(partition, new Quantity(f.acceleratorPartitionLimit.strip()));
            if (f.acceleratorPartitionCount != null) requests.put(partition, new Quantity(f.acceleratorPartitionCount.strip()));
        }
        container.setResources(new ResourceRequirements(null, limits, requests));
        podSpec.setContainers(List.of(container));
        return new PodTemplateSpec(metadata, podSpec);
    }

    /** Neuron devices on Trainium and Inferentia instances, NVIDIA GPUs elsewhere. */
    static String acceleratorResource(String instanceType) {
        return instanceType != null && (instanceType.startsWith("ml.trn") || instanceType.startsWith("ml.inf"))
                ? "aws.amazon.com/neuron" : "nvidia.com/gpu";
    }

    /** The flags' amounts as Kubernetes quantities, memory from GiB to {@code Gi}. */
    private static Map<String, Quantity> resources(String accelerator, String accelerators, String vcpu, String memoryGiB) {
        Map<String, Quantity> out = new LinkedHashMap<>();
        if (accelerators != null) out.put(accelerator, new Quantity(accelerators.strip())); // as HypPyTorchJobFlags checked it
        if (vcpu != null) out.put("cpu", new Quantity(vcpu.strip()));
        if (memoryGiB != null) out.put("memory", new Quantity(new BigDecimal(memoryGiB.strip()).stripTrailingZeros().toPlainString() + "Gi"));
        return out;
    }

    private static Map<String, String> kueueLabels(WorkloadSubmitted w) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("kueue.x-k8s.io/queue-name", w.queueName());
        if (w.priorityClass() != null) labels.put("kueue.x-k8s.io/priority-class", w.priorityClass());
        return labels;
    }

    /** The job as YAML for {@code kubectl apply} (fabric8's model writes its fields in its own order). */
    static String yaml(GenericKubernetesResource manifest) {
        try {
            return new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                    .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .writeValueAsString(manifest);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
