package dev.taskgov.manifests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The table of manifests and the pod sets they become, one row per rule of {@link ManifestTranslator}
 * and {@link PodRequests}, comparing whole submissions; then the refusals, each naming its field.
 */
class ManifestTranslatorTest {

    static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");
    static final String L3 = TopologyLevels.LAYER_3;
    static final String P5 = "ml.p5.48xlarge";
    static final String G5 = "ml.g5.8xlarge";
    static final ManifestTranslator.Overrides DEFAULT_P5 = new ManifestTranslator.Overrides(null, null, null, null, P5);
    static final ManifestTranslator.Overrides DEFAULT_G5 = new ManifestTranslator.Overrides(null, null, null, null, G5);

    /** A Job named train in hyperpod-ns-team-a (queue q) whose pod template's spec is {@code podSpec}, indented as YAML. */
    static String job(String podSpec) {
        return """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: train
                  namespace: hyperpod-ns-team-a
                  labels: {kueue.x-k8s.io/queue-name: q}
                spec:
                  template:
                    spec:
                %s
                """.formatted(podSpec.lines().map(l -> "      " + l).reduce((a, b) -> a + "\n" + b).orElse(""));
    }

    /** The submission of {@link #job}: one pod set {@code main} of one pod on {@code G5}. */
    static WorkloadSubmitted trainMain(ResourceAmounts perPod) {
        return submission("train", "hyperpod-ns-team-a", "q", null, "Job", new PodSetSpec("main", 1, G5, perPod, null, null));
    }

    static Arguments row(String name, String yaml, ManifestTranslator.Overrides overrides, WorkloadSubmitted expected, String... warnings) {
        return Arguments.of(name, yaml, overrides, expected, List.of(warnings));
    }

    static Stream<Arguments> manifests() {
        return Stream.of(
                row("seed 000 Job, required layer-3 and the rack pinned", resource("seed-000-job-required.yaml"), DEFAULT_P5,
                        submission("test-tas-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", "PRIORITY_CLASS-priority", "Job",
                                new PodSetSpec("main", 10, P5, amounts(null, "100", null), L3, null, Map.of(L3, "TOPOLOGY_LABEL_VALUE")))
                                .withAnnotations(image("gcr.io/k8s-staging-perf-tests/sleep:v0.1.0"))),
                row("seed 000 Job, preferred layer-3", resource("seed-000-job-preferred.yaml"), DEFAULT_P5,
                        submission("test-tas-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", "PRIORITY_CLASS-priority", "Job",
                                new PodSetSpec("main", 10, P5, amounts(null, "100", null), null, L3, Map.of(L3, "TOPOLOGY_LABEL_VALUE")))
                                .withAnnotations(image("gcr.io/k8s-staging-perf-tests/sleep:v0.1.0"))),
                row("seed 000 PyTorchJob: master and worker pod sets, a cpu limit for the request, 200Mi in GiB, the image once",
                        resource("seed-000-pytorchjob.yaml"), DEFAULT_P5,
                        submission("tas-test-pytorch-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", null, "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, null, null), null, null),
                                new PodSetSpec("worker", 10, P5, amounts(null, "1", "0.1953125"), null, null))
                                .withAnnotations(image("docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727"))),
                row("GPU PyTorchJob: containers summed, GPU limits for requests, instance type from the node selector, each image",
                        resource("pytorchjob-gpu.yaml"), ManifestTranslator.Overrides.NONE,
                        submission("llama-finetune", "hyperpod-ns-researchers", "hyperpod-ns-researchers-localqueue", "training-priority", "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, "4", "16"), null, null),
                                new PodSetSpec("worker", 4, P5, amounts("8", "180.5", "1900.5"), L3, null))
                                .withAnnotations(image("example/llama:latest,example/logger:latest"))),
                row("overrides win for name, namespace and priority; the default instance type only fills a gap",
                        resource("pytorchjob-gpu.yaml"), new ManifestTranslator.Overrides("run-2", "hyperpod-ns-team-a", null, "inference-priority", G5),
                        submission("run-2", "hyperpod-ns-team-a", "hyperpod-ns-researchers-localqueue", "inference-priority", "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, "4", "16"), null, null),
                                new PodSetSpec("worker", 4, P5, amounts("8", "180.5", "1900.5"), L3, null))
                                .withAnnotations(image("example/llama:latest,example/logger:latest"))),
                row("MPIJob: one pod set per replica type", """
                        apiVersion: kubeflow.org/v1
                        kind: MPIJob
                        metadata: {name: mpi, namespace: hyperpod-ns-team-a, labels: {kueue.x-k8s.io/queue-name: q}}
                        spec:
                          mpiReplicaSpecs:
                            Launcher: {replicas: 1, template: {spec: {containers: [{name: l, resources: {requests: {cpu: 1}}}]}}}
                            Worker: {replicas: 4, template: {spec: {containers: [{name: w, resources: {requests: {nvidia.com/gpu: 8}}}]}}}
                        """, DEFAULT_G5,
                        submission("mpi", "hyperpod-ns-team-a", "q", null, "MPIJob",
                                new PodSetSpec("launcher", 1, G5, amounts(null, "1", null), null, null),
                                new PodSetSpec("worker", 4, G5, amounts("8", null, null), null, null))),
                row("the job's expected run time is passed on as its annotation", """
                        apiVersion: kubeflow.org/v1
                        kind: MPIJob
                        metadata:
                          name: mpi
                          namespace: hyperpod-ns-team-a
                          labels: {kueue.x-k8s.io/queue-name: q}
                          annotations: {taskgov.dev/expected-runtime: PT2H, other.example/note: ignored}
                        spec:
                          mpiReplicaSpecs:
                            Worker: {replicas: 4, template: {spec: {containers: [{name: w, resources: {requests: {nvidia.com/gpu: 8}}}]}}}
                        """, DEFAULT_G5,
                        submission("mpi", "hyperpod-ns-team-a", "q", null, "MPIJob",
                                new PodSetSpec("worker", 4, G5, amounts("8", null, null), null, null))
                                .withAnnotations(Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "PT2H"))),
                row("TFJob: tfReplicaSpecs", """
                        apiVersion: kubeflow.org/v1
                        kind: TFJob
                        metadata: {name: tf, namespace: hyperpod-ns-team-a, labels: {kueue.x-k8s.io/queue-name: q}}
                        spec:
                          tfReplicaSpecs:
                            PS: {template: {spec: {containers: [{name: p, resources: {requests: {cpu: 2}}}]}}}
                        """, DEFAULT_G5,
                        submission("tf", "hyperpod-ns-team-a", "q", null, "TFJob", new PodSetSpec("ps", 1, G5, amounts(null, "2", null), null, null))),
                row("HyperPodPyTorchJob: a replicaSpecs list by name; spares are pods too; neurondevice counts", """
                        apiVersion: sagemaker.amazonaws.com/v1
                        kind: HyperPodPyTorchJob
                        metadata: {name: hp, namespace: hyperpod-ns-team-a, labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: high-priority}}
                        spec:
                          replicaSpecs:
                          - name: Pod
                            replicas: 2
                            spares: 1
                            template:
                              spec:
                                nodeSelector: {node.kubernetes.io/instance-type: ml.trn1.32xlarge}
                                containers: [{name: c, resources: {requests: {aws.amazon.com/neurondevice: 16, cpu: 120, memory: 480Gi}}}]
                        """, ManifestTranslator.Overrides.NONE,
                        submission("hp", "hyperpod-ns-team-a", "q", "high-priority", "HyperPodPyTorchJob",
                                new PodSetSpec("pod", 3, "ml.trn1.32xlarge", amounts("16", "120", "480"), null, null))),
                row("Job parallelism is the pod count", """
                        apiVersion: batch/v1
                        kind: Job
                        metadata: {name: train, namespace: hyperpod-ns-team-a, labels: {kueue.x-k8s.io/queue-name: q}}
                        spec: {parallelism: 4, template: {spec: {containers: [{name: c, resources: {requests: {nvidia.com/gpu: 1}}}]}}}
                        """, DEFAULT_G5,
                        submission("train", "hyperpod-ns-team-a", "q", null, "Job", new PodSetSpec("main", 4, G5, amounts("1", null, null), null, null))),
                row("the three accelerator names add up", job("""
                        containers:
                        - {name: a, resources: {limits: {nvidia.com/gpu: 1}}}
                        - {name: b, resources: {requests: {aws.amazon.com/neuron: 2}}}
                        - {name: c, resources: {requests: {aws.amazon.com/neurondevice: 4}}}"""), DEFAULT_G5, trainMain(amounts("7", null, null))),
                row("nvidia.com/mig-* limits are MIG partitions of their profile, beside whole GPUs", job("""
                        containers:
                        - {name: a, resources: {limits: {nvidia.com/mig-1g.10gb: 1, cpu: 2}}}
                        - {name: b, resources: {limits: {nvidia.com/mig-1g.10gb: 1, nvidia.com/mig-3g.40gb: 1}}}"""), DEFAULT_G5,
                        trainMain(new ResourceAmounts(null, new java.math.BigDecimal("2"), null,
                                Map.of("mig-1g.10gb", new java.math.BigDecimal("2"), "mig-3g.40gb", java.math.BigDecimal.ONE)))),
                row("a request wins over its limit; a limit alone stands for the request", job("""
                        containers:
                        - {name: a, resources: {requests: {cpu: 1}, limits: {cpu: 4, memory: 2Gi}}}"""), DEFAULT_G5, trainMain(amounts(null, "1", "2"))),
                row("the largest init container is a floor, per resource", job("""
                        initContainers:
                        - {name: i1, resources: {requests: {cpu: 8}}}
                        - {name: i2, resources: {requests: {memory: 4Gi}}}
                        containers:
                        - {name: a, resources: {requests: {cpu: 1, memory: 512Mi}}}
                        - {name: b, resources: {requests: {cpu: 2, memory: 512Mi}}}"""), DEFAULT_G5, trainMain(amounts(null, "8", "4"))),
                row("a sidecar (restartPolicy Always) runs beside the containers and the init containers after it", job("""
                        initContainers:
                        - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 1, memory: 1Gi}}}
                        - {name: fetch, resources: {requests: {cpu: 4}}}
                        containers:
                        - {name: a, resources: {requests: {cpu: 2, memory: 2Gi}}}"""), DEFAULT_G5, trainMain(amounts(null, "5", "3"))),
                row("the pod overhead is added", job("""
                        overhead: {cpu: 250m, memory: 512Mi}
                        containers:
                        - {name: a, resources: {requests: {cpu: 1, memory: 1Gi}}}"""), DEFAULT_G5, trainMain(amounts(null, "1.25", "1.5"))),
                row("cpu rounds up to a milli-vCPU and memory up to a MiB, once per pod (after summing)", job("""
                        containers:
                        - {name: a, resources: {requests: {cpu: "0.0004", memory: "1000"}}}
                        - {name: b, resources: {requests: {cpu: "0.0004", memory: "1000"}}}"""), DEFAULT_G5,
                        trainMain(amounts(null, "0.001", "0.0009765625"))),
                row("decimal suffixes: 1G of memory is 954 MiB rounded up, 1500m cpu is 1.5", job("""
                        containers:
                        - {name: a, resources: {requests: {cpu: 1500m, memory: 1G}}}"""), DEFAULT_G5,
                        trainMain(amounts(null, "1.5", "0.931640625"))),
                row("a topology node selector is kept with its value, next to the preferred level", job("""
                        nodeSelector: {topology.k8s.aws/network-node-layer-2: nn-b1, beta.kubernetes.io/instance-type: ml.p5.48xlarge}
                        containers:
                        - {name: a, resources: {requests: {nvidia.com/gpu: 1}}}""").replace("    spec:\n", "    metadata:\n      annotations: {kueue.x-k8s.io/podset-preferred-topology: topology.k8s.aws/network-node-layer-1}\n    spec:\n"),
                        DEFAULT_G5, submission("train", "hyperpod-ns-team-a", "q", null, "Job",
                                new PodSetSpec("main", 1, P5, amounts("1", null, null), null, TopologyLevels.LAYER_1, Map.of(TopologyLevels.LAYER_2, "nn-b1")))),
                row("no queue label anywhere: the namespace's local queue, said as a warning", """
                        kind: Job
                        metadata: {name: x, namespace: hyperpod-ns-team-a}
                        spec: {template: {spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}}}
                        """, DEFAULT_G5,
                        submission("x", "hyperpod-ns-team-a", "hyperpod-ns-team-a-localqueue", null, "Job",
                                new PodSetSpec("main", 1, G5, amounts(null, "1", null), null, null)),
                        "metadata.labels: no kueue.x-k8s.io/queue-name; using hyperpod-ns-team-a-localqueue"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void translatesManifestsIntoWholeSubmissions(String name, String yaml, ManifestTranslator.Overrides overrides,
                                                 WorkloadSubmitted expected, List<String> warnings) {
        ManifestTranslator.Translation t = ManifestTranslator.translate(ManifestTranslator.parse(yaml), overrides, AT);

        assertThat(t).isEqualTo(new ManifestTranslator.Translation(expected, warnings));
    }

    /**
     * The same table with every pod template typed before the translation, as a job built in code carries it
     * ({@code taskgov create hyp-pytorch-job}): the same submissions and warnings, since the rules read typed templates.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void readsTypedPodTemplatesAsItReadsTheirMaps(String name, String yaml, ManifestTranslator.Overrides overrides,
                                                  WorkloadSubmitted expected, List<String> warnings) {
        GenericKubernetesResource job = ManifestTranslator.parse(yaml);
        ManifestKind kind = ManifestKind.ofKind(job.getKind());
        Map<String, Object> spec = ManifestKind.map(job.getAdditionalProperties().get("spec"));
        KubernetesSerialization model = new KubernetesSerialization();
        List<Map<String, Object>> holders = kind.replicaSpecsField() == null ? List.of(spec)
                : kind.replicaSpecs(spec).values().stream().map(ManifestKind.ReplicaSpec::fields).toList();
        for (Map<String, Object> holder : holders) {
            holder.put("template", model.convertValue(holder.get("template"), PodTemplateSpec.class));
        }
        assertThat(holders).allSatisfy(h -> assertThat(h.get("template")).isInstanceOf(PodTemplateSpec.class));

        assertThat(ManifestTranslator.translate(job, overrides, AT)).isEqualTo(new ManifestTranslator.Translation(expected, warnings));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refusal("no instance type anywhere", resource("seed-000-pytorchjob.yaml"), ManifestTranslator.Overrides.NONE, "UnknownInstanceType",
                        "spec.pytorchReplicaSpecs.Master.template.spec.nodeSelector: no node.kubernetes.io/instance-type label"),
                refusal("unsupported kind", "kind: Deployment\nmetadata: {name: x, namespace: hyperpod-ns-a}\n", "UnsupportedKind",
                        "kind: 'Deployment' is not supported"),
                refusal("no namespace", "kind: Job\nmetadata: {name: x}\n", "InvalidSpec", "metadata.namespace: required"),
                refusal("no replica spec", "kind: PyTorchJob\nmetadata: {name: x, namespace: n}\nspec: {pytorchReplicaSpecs: {}}\n",
                        "InvalidSpec", "spec.pytorchReplicaSpecs: required, with at least one replica spec"),
                refusal("replicas not a whole number", "kind: PyTorchJob\nmetadata: {name: x, namespace: n}\n"
                                + "spec: {pytorchReplicaSpecs: {Worker: {replicas: two}}}\n",
                        "InvalidSpec", "spec.pytorchReplicaSpecs.Worker.replicas: must be a whole number, was two"),
                refusal("parallelism 0", "kind: Job\nmetadata: {name: x, namespace: n}\nspec: {parallelism: 0}\n",
                        "InvalidSpec", "spec.template: the pod count must be at least 1, was 0"),
                refusal("bad quantity", job("containers: [{name: c, resources: {requests: {memory: lots}}}]"), "InvalidSpec",
                        "spec.template.spec.containers[0].resources.requests.memory: 'lots' is not a Kubernetes quantity"),
                refusal("negative quantity", job("containers: [{name: c, resources: {requests: {cpu: -1}}}]"), "InvalidSpec",
                        "spec.template.spec.containers[0].resources.requests.cpu: must not be negative"),
                refusal("fractional GPUs", job("containers: [{name: c, resources: {limits: {nvidia.com/gpu: 500m}}}]"), "InvalidSpec",
                        "spec.template.spec.containers[0].resources.limits.nvidia.com/gpu: accelerators are whole devices, was 0.5"),
                refusal("fractional MIG partitions", job("containers: [{name: c, resources: {limits: {nvidia.com/mig-1g.10gb: 500m}}}]"),
                        "InvalidSpec", "spec.template.spec.containers[0].resources.limits.nvidia.com/mig-1g.10gb: MIG partitions are whole devices, "
                                + "was 0.5"),
                refusal("an init container's fractional accelerators", job("initContainers: [{name: i, resources: {requests: {aws.amazon.com/neuron: 0.5}}}]"),
                        "InvalidSpec", "spec.template.spec.initContainers[0].resources.requests.aws.amazon.com/neuron: accelerators are whole devices"),
                refusal("an empty node selector value", job("""
                        nodeSelector: {topology.k8s.aws/network-node-layer-3: ""}
                        containers: [{name: c, resources: {requests: {cpu: 1}}}]"""), "InvalidSpec",
                        "spec.template.spec.nodeSelector.topology.k8s.aws/network-node-layer-3: must not be empty"),
                refusal("an unknown topology level", job("containers: []").replace("    spec:\n",
                                "    metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: rack}}\n    spec:\n"), "InvalidTopology",
                        "spec.template.metadata.annotations.kueue.x-k8s.io/podset-required-topology: unknown topology level 'rack'"),
                refusal("required and preferred together", job("containers: []").replace("    spec:\n",
                                "    metadata: {annotations: {kueue.x-k8s.io/podset-required-topology: " + L3
                                        + ", kueue.x-k8s.io/podset-preferred-topology: " + L3 + "}}\n    spec:\n"), "InvalidTopology",
                        "spec.template: give either kueue.x-k8s.io/podset-required-topology or kueue.x-k8s.io/podset-preferred-topology, not both"),
                refusal("seed 000 verbatim: the 'or' between the two annotations is not YAML",
                        "kind: Job\nmetadata:\n  annotations:\n    a: \"x\"\n    or\n    b: \"y\"\n", "InvalidYaml", "the manifest is not valid YAML"));
    }

    /** A refusal with the instance type defaulted, so the row shows its own rule only. */
    static Arguments refusal(String name, String yaml, String reason, String message) {
        return refusal(name, yaml, DEFAULT_G5, reason, message);
    }

    static Arguments refusal(String name, String yaml, ManifestTranslator.Overrides overrides, String reason, String message) {
        return Arguments.of(name, yaml, overrides, reason, message);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesWithTheFieldAndTheRule(String name, String yaml, ManifestTranslator.Overrides overrides, String reason, String message) {
        assertThatThrownBy(() -> ManifestTranslator.translate(ManifestTranslator.parse(yaml), overrides, AT))
                .isInstanceOfSatisfying(InvalidManifestException.class, e -> {
                    assertThat(e.reason()).isEqualTo(reason);
                    assertThat(e.getMessage()).startsWith(message);
                });
    }

    static WorkloadSubmitted submission(String id, String ns, String queue, String priority, String kind, PodSetSpec... podSets) {
        return new WorkloadSubmitted(id, ns, queue, priority, kind, AT, List.of(podSets));
    }

    /** The annotation that records the containers' images. */
    static Map<String, String> image(String images) {
        return Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, images);
    }

    static ResourceAmounts amounts(String accelerators, String vcpu, String memoryGiB) {
        return new ResourceAmounts(accelerators == null ? null : new BigDecimal(accelerators), vcpu == null ? null : new BigDecimal(vcpu),
                memoryGiB == null ? null : new BigDecimal(memoryGiB));
    }

    static String resource(String name) {
        try (var in = ManifestTranslatorTest.class.getResourceAsStream("/manifests/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
