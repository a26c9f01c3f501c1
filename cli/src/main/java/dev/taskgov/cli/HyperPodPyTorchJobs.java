package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;

import java.math.BigDecimal;
import java.util.Map;

/**
 * The {@code HyperPodPyTorchJob} ({@code sagemaker.amazonaws.com/v1}) that {@code hyp create
 * hyp-pytorch-job} flags describe: one entry "pod" in {@code spec.replicaSpecs} with
 * {@code --node-count} replicas, {@code spec.nprocPerNode}, {@code spec.runPolicy.jobMaxRetryCount},
 * the Kueue labels on the job and its pod template, the topology annotation on the pod template.
 */
final class HyperPodPyTorchJobs {

    static final String API_VERSION = "sagemaker.amazonaws.com/v1";
    static final String KIND = "HyperPodPyTorchJob";

    private HyperPodPyTorchJobs() {
    }

    static ObjectNode manifest(HypPyTorchJobFlags f, WorkloadSubmitted w) {
        PodSetSpec pods = w.podSets().get(0);
        ObjectNode job = EventCodec.mapper().createObjectNode();
        job.put("apiVersion", API_VERSION);
        job.put("kind", KIND);
        ObjectNode metadata = job.putObject("metadata");
        metadata.put("name", w.workloadId());
        metadata.put("namespace", w.namespace());
        kueueLabels(metadata.putObject("labels"), w);
        ObjectNode spec = job.putObject("spec");
        if (f.tasksPerNode != null) spec.put("nprocPerNode", f.tasksPerNode);
        if (f.maxRetry != null) spec.putObject("runPolicy").put("cleanPodPolicy", "None").put("jobMaxRetryCount", f.maxRetry);
        ObjectNode replica = spec.putArray("replicaSpecs").addObject();
        replica.put("name", pods.name());
        replica.put("replicas", pods.count());
        ObjectNode template = replica.putObject("template");
        ObjectNode templateMeta = template.putObject("metadata");
        kueueLabels(templateMeta.putObject("labels"), w);
        if (pods.preferredTopology() != null) templateMeta.putObject("annotations").put("kueue.x-k8s.io/podset-preferred-topology", pods.preferredTopology());
        if (pods.requiredTopology() != null) templateMeta.putObject("annotations").put("kueue.x-k8s.io/podset-required-topology", pods.requiredTopology());
        ObjectNode podSpec = template.putObject("spec");
        ObjectNode selector = podSpec.putObject("nodeSelector");
        if (pods.instanceType() != null) selector.put("node.kubernetes.io/instance-type", pods.instanceType());
        pods.nodeSelector().forEach(selector::put);
        if (f.serviceAccountName != null) podSpec.put("serviceAccountName", f.serviceAccountName);
        if (f.schedulerType != null) podSpec.put("schedulerName", f.schedulerType);
        ObjectNode container = podSpec.putArray("containers").addObject();
        container.put("name", "pytorch-job-container");
        container.put("image", f.image);
        if (f.pullPolicy != null) container.put("imagePullPolicy", f.pullPolicy);
        if (f.command != null) container.set("command", HypPyTorchJobFlags.jsonList("--command", f.command));
        if (f.args != null) container.set("args", HypPyTorchJobFlags.jsonList("--args", f.args));
        if (f.environment != null) {
            ArrayNode env = container.putArray("env");
            HypPyTorchJobFlags.jsonObject("--environment", f.environment).forEach((k, v) -> env.addObject().put("name", k).put("value", v));
        }
        ObjectNode resources = container.putObject("resources");
        String accelerator = acceleratorResource(pods.instanceType());
        resources(resources.putObject("requests"), accelerator, f.accelerators, f.vcpu, f.memory);
        resources(resources.putObject("limits"), accelerator, f.acceleratorsLimit, f.vcpuLimit, f.memoryLimit);
        return job;
    }

    /** Neuron devices on Trainium and Inferentia instances, NVIDIA GPUs elsewhere. */
    static String acceleratorResource(String instanceType) {
        return instanceType != null && (instanceType.startsWith("ml.trn") || instanceType.startsWith("ml.inf"))
                ? "aws.amazon.com/neuron" : "nvidia.com/gpu";
    }

    private static void resources(ObjectNode out, String accelerator, String accelerators, String vcpu, String memoryGiB) {
        if (accelerators != null) out.put(accelerator, accelerators);
        if (vcpu != null) out.put("cpu", vcpu);
        if (memoryGiB != null) out.put("memory", new BigDecimal(memoryGiB.strip()).stripTrailingZeros().toPlainString() + "Gi");
    }

    private static void kueueLabels(ObjectNode labels, WorkloadSubmitted w) {
        labels.put("kueue.x-k8s.io/queue-name", w.queueName());
        if (w.priorityClass() != null) labels.put("kueue.x-k8s.io/priority-class", w.priorityClass());
    }

    static String yaml(JsonNode manifest) {
        try {
            return new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                    .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .writeValueAsString(manifest);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static Map<String, String> labels(JsonNode manifest) {
        return EventCodec.mapper().convertValue(manifest.path("metadata").path("labels"),
                new com.fasterxml.jackson.core.type.TypeReference<Map<String, String>>() { });
    }
}
