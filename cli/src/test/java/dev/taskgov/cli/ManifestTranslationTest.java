package dev.taskgov.cli;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Kueue-labelled manifests (seed 000's Job and PyTorchJob, and a GPU job) translated into whole submissions. */
class ManifestTranslationTest {

    static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");
    static final String L3 = "topology.k8s.aws/network-node-layer-3";
    static final String P5 = "ml.p5.48xlarge";
    static final ManifestTranslator.Overrides INSTANCE_P5 = new ManifestTranslator.Overrides(null, null, null, null, P5);

    static Stream<Arguments> manifests() {
        return Stream.of(
                Arguments.of("seed 000 Job, required layer-3", "seed-000-job-required.yaml", INSTANCE_P5,
                        submission("test-tas-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", "PRIORITY_CLASS-priority", "Job",
                                new PodSetSpec("main", 10, P5, amounts(null, "100", null), L3, null, java.util.Map.of(L3, "TOPOLOGY_LABEL_VALUE"))),
                        List.of()),
                Arguments.of("seed 000 Job, preferred layer-3", "seed-000-job-preferred.yaml", INSTANCE_P5,
                        submission("test-tas-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", "PRIORITY_CLASS-priority", "Job",
                                new PodSetSpec("main", 10, P5, amounts(null, "100", null), null, L3, java.util.Map.of(L3, "TOPOLOGY_LABEL_VALUE"))),
                        List.of()),
                Arguments.of("seed 000 PyTorchJob: master and worker pod sets, 200Mi in GiB, no priority", "seed-000-pytorchjob.yaml", INSTANCE_P5,
                        submission("tas-test-pytorch-job", "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", null, "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, null, null), null, null),
                                new PodSetSpec("worker", 10, P5, amounts(null, "1", "0.1953125"), null, null)),
                        List.of()),
                Arguments.of("GPU PyTorchJob: limits stand for requests, containers summed, instance type from the node selector",
                        "pytorchjob-gpu.yaml", ManifestTranslator.Overrides.NONE,
                        submission("llama-finetune", "hyperpod-ns-researchers", "hyperpod-ns-researchers-localqueue", "training-priority", "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, "4", "16"), null, null),
                                new PodSetSpec("worker", 4, P5, amounts("8", "180.5", "1900.5"), L3, null)),
                        List.of()),
                Arguments.of("flags override name, namespace and priority", "pytorchjob-gpu.yaml",
                        new ManifestTranslator.Overrides("run-2", "hyperpod-ns-team-a", null, "inference-priority", "ml.g5.8xlarge"),
                        submission("run-2", "hyperpod-ns-team-a", "hyperpod-ns-researchers-localqueue", "inference-priority", "PyTorchJob",
                                new PodSetSpec("master", 1, P5, amounts(null, "4", "16"), null, null),
                                new PodSetSpec("worker", 4, P5, amounts("8", "180.5", "1900.5"), L3, null)),
                        List.of()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("manifests")
    void translatesWholeSubmissions(String name, String file, ManifestTranslator.Overrides overrides, WorkloadSubmitted expected,
                                    List<String> warnings) {
        ManifestTranslator.Translation t = ManifestTranslator.translate(resource(file), overrides, AT);

        assertThat(t).isEqualTo(new ManifestTranslator.Translation(expected, warnings));
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                Arguments.of("no instance type anywhere", resource("seed-000-pytorchjob.yaml"),
                        "spec.pytorchReplicaSpecs.Master.template.spec.nodeSelector: no node.kubernetes.io/instance-type; add it or give --instance-type"),
                Arguments.of("unsupported kind", "kind: Deployment\nmetadata: {name: x, namespace: hyperpod-ns-a}\n",
                        "kind: 'Deployment' is not supported; give a batch/v1 Job or a PyTorchJob (also TFJob, MPIJob)"),
                Arguments.of("no namespace", "kind: Job\nmetadata: {name: x}\n",
                        "metadata.namespace: required, the team's namespace such as hyperpod-ns-team-a (or give --namespace)"),
                Arguments.of("bad quantity", """
                        kind: Job
                        metadata: {name: x, namespace: hyperpod-ns-a}
                        spec:
                          template:
                            spec:
                              nodeSelector: {node.kubernetes.io/instance-type: ml.p5.48xlarge}
                              containers: [{name: c, resources: {requests: {memory: lots}}}]
                        """, "spec.template.spec.containers[0].resources.memory: 'lots' is not a Kubernetes quantity (e.g. 4, 500m, 200Mi, 32Gi)"),
                Arguments.of("fractional GPUs", """
                        kind: Job
                        metadata: {name: x, namespace: hyperpod-ns-a}
                        spec:
                          template:
                            spec:
                              nodeSelector: {node.kubernetes.io/instance-type: ml.p5.48xlarge}
                              containers: [{name: c, resources: {limits: {nvidia.com/gpu: 500m}}}]
                        """, "spec.template.spec.containers[0].resources.nvidia.com/gpu: accelerators are whole devices, was '500m'"),
                Arguments.of("an empty node selector value", """
                        kind: Job
                        metadata: {name: x, namespace: hyperpod-ns-a}
                        spec:
                          template:
                            spec:
                              nodeSelector: {node.kubernetes.io/instance-type: ml.p5.48xlarge, topology.k8s.aws/network-node-layer-3: ""}
                              containers: [{name: c, resources: {requests: {cpu: 1}}}]
                        """, "spec.template.spec.nodeSelector.topology.k8s.aws/network-node-layer-3: must not be empty"),
                Arguments.of("seed 000 verbatim: the 'or' between the two annotations is not YAML",
                        "kind: Job\nmetadata:\n  annotations:\n    a: \"x\"\n    or\n    b: \"y\"\n", "the manifest is not valid YAML"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void refusesWithTheFieldAndTheRule(String name, String yaml, String message) {
        assertThatThrownBy(() -> ManifestTranslator.translate(yaml, ManifestTranslator.Overrides.NONE, AT))
                .isInstanceOfSatisfying(CliException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(CliException.INVALID_INPUT);
                    assertThat(e.getMessage()).startsWith(message);
                });
    }

    static WorkloadSubmitted submission(String id, String ns, String queue, String priority, String kind, PodSetSpec... podSets) {
        return new WorkloadSubmitted(id, ns, queue, priority, kind, AT, List.of(podSets));
    }

    static ResourceAmounts amounts(String accelerators, String vcpu, String memoryGiB) {
        return new ResourceAmounts(accelerators == null ? null : new BigDecimal(accelerators), vcpu == null ? null : new BigDecimal(vcpu),
                memoryGiB == null ? null : new BigDecimal(memoryGiB));
    }

    static String resource(String name) {
        try (var in = ManifestTranslationTest.class.getResourceAsStream("/manifests/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
