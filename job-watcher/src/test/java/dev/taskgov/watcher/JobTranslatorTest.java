package dev.taskgov.watcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
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
import io.fabric8.kubernetes.client.utils.Serialization;

/** Translation rules, one named case per rule, comparing the whole translation. */
class JobTranslatorTest {
    static final Instant CREATED = Instant.parse("2026-11-30T10:00:00Z");
    static final JobTranslator TRANSLATOR = new JobTranslator("hyperpod-ns-", Map.of("team-a", "ml.g5.8xlarge"),
            Clock.fixed(CREATED, ZoneOffset.UTC));

    /** A Job in hyperpod-ns-team-a with one pod template given as YAML lines (indented under template). */
    static GenericKubernetesResource job(String spec, String template) {
        String yaml = """
                apiVersion: batch/v1
                kind: Job
                metadata:
                  name: train
                  namespace: hyperpod-ns-team-a
                  uid: 0123456789ab-cdef
                  creationTimestamp: "2026-11-30T10:00:00Z"
                  labels:
                    kueue.x-k8s.io/queue-name: hyperpod-ns-team-a-localqueue
                spec:
                  suspend: true
                %s
                  template:
                %s
                """.formatted(indent(spec, 2), indent(template, 4));
        return Serialization.unmarshal(yaml, GenericKubernetesResource.class);
    }

    static String indent(String s, int n) {
        return s.lines().map(l -> " ".repeat(n) + l).reduce((a, b) -> a + "\n" + b).orElse("");
    }

    static JobTranslator.Submit main(int count, String type, ResourceAmounts r, String required, String preferred) {
        return new JobTranslator.Submit(new WorkloadSubmitted("team-a-train-01234567", "hyperpod-ns-team-a",
                "hyperpod-ns-team-a-localqueue", null, "Job", CREATED,
                List.of(new PodSetSpec("main", count, type, r, required, preferred))));
    }

    static JobTranslator.Submit main(int count, String type, ResourceAmounts r, String required, String preferred,
                                     Map<String, String> nodeSelector) {
        return new JobTranslator.Submit(new WorkloadSubmitted("team-a-train-01234567", "hyperpod-ns-team-a",
                "hyperpod-ns-team-a-localqueue", null, "Job", CREATED,
                List.of(new PodSetSpec("main", count, type, r, required, preferred, nodeSelector))));
    }

    static ResourceAmounts res(String acc, String vcpu, String mem) {
        return new ResourceAmounts(acc == null ? null : new BigDecimal(acc), vcpu == null ? null : new BigDecimal(vcpu),
                mem == null ? null : new BigDecimal(mem));
    }

    static Arguments c(String name, GenericKubernetesResource job, JobTranslator.Translation expected) {
        return Arguments.of(name, JobKind.JOB, job, expected);
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                c("gpu requests and the instance-type selector", job("parallelism: 4", """
                        spec:
                          nodeSelector: {node.kubernetes.io/instance-type: ml.p5.48xlarge}
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 8, cpu: 500m, memory: 1Gi}}"""),
                        main(4, "ml.p5.48xlarge", res("8", "0.5", "1"), null, null)),
                c("limits when no requests; neuron is an accelerator; the team's only instance type", job("", """
                        spec:
                          containers:
                          - name: c
                            resources: {limits: {aws.amazon.com/neuron: 2, cpu: 2}}"""),
                        main(1, "ml.g5.8xlarge", res("2", "2", null), null, null)),
                c("containers add up; the largest init container is a floor", job("", """
                        spec:
                          initContainers:
                          - name: i
                            resources: {requests: {cpu: 8}}
                          containers:
                          - name: a
                            resources: {requests: {cpu: 1, memory: 512Mi}}
                          - name: b
                            resources: {requests: {cpu: 2, memory: 512Mi}}"""),
                        main(1, "ml.g5.8xlarge", res(null, "8", "1"), null, null)),
                c("a topology node selector is kept with its value, next to the preferred level", job("", """
                        metadata:
                          annotations: {kueue.x-k8s.io/podset-preferred-topology: topology.k8s.aws/network-node-layer-1}
                        spec:
                          nodeSelector: {topology.k8s.aws/network-node-layer-2: nn-b1}
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        main(1, "ml.g5.8xlarge", res("1", null, null), null, TopologyLevels.LAYER_1,
                                Map.of(TopologyLevels.LAYER_2, "nn-b1"))),
                c("seed 000: required rack and the rack pinned by value; the instance-type label is not repeated", job("", """
                        metadata:
                          annotations: {kueue.x-k8s.io/podset-required-topology: topology.k8s.aws/network-node-layer-3}
                        spec:
                          nodeSelector:
                            topology.k8s.aws/network-node-layer-3: nn-b1-r2
                            node.kubernetes.io/instance-type: ml.p5.48xlarge
                            example.com/pool: training
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        main(1, "ml.p5.48xlarge", res("1", null, null), TopologyLevels.LAYER_3, null,
                                Map.of(TopologyLevels.LAYER_3, "nn-b1-r2", "example.com/pool", "training"))),
                c("an empty node selector value is refused with its field", job("", """
                        spec:
                          nodeSelector: {topology.k8s.aws/network-node-layer-3: ""}
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        new JobTranslator.Invalid("InvalidSpec",
                                "spec.template.spec.nodeSelector.topology.k8s.aws/network-node-layer-3: must not be empty")),
                c("required and preferred annotations together are refused", job("", """
                        metadata:
                          annotations:
                            kueue.x-k8s.io/podset-required-topology: topology.k8s.aws/network-node-layer-1
                            kueue.x-k8s.io/podset-preferred-topology: topology.k8s.aws/network-node-layer-3
                        spec:
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        new JobTranslator.Invalid("InvalidTopology", "spec.template: give either "
                                + "kueue.x-k8s.io/podset-required-topology or kueue.x-k8s.io/podset-preferred-topology, not both")),
                c("parallelism 0 is refused", job("parallelism: 0", """
                        spec:
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        new JobTranslator.Invalid("InvalidSpec", "spec.template: the pod count must be at least 1, was 0")),
                Arguments.of("an MPIJob has one pod set per replica spec", JobKind.MPI_JOB,
                        Serialization.unmarshal("""
                                apiVersion: kubeflow.org/v1
                                kind: MPIJob
                                metadata:
                                  name: mpi
                                  namespace: hyperpod-ns-team-a
                                  uid: abcdef01-2345
                                  creationTimestamp: "2026-11-30T10:00:00Z"
                                  labels: {kueue.x-k8s.io/queue-name: q, kueue.x-k8s.io/priority-class: training-priority}
                                spec:
                                  runPolicy: {suspend: true}
                                  mpiReplicaSpecs:
                                    Launcher:
                                      replicas: 1
                                      template: {spec: {containers: [{name: l, resources: {requests: {cpu: 1}}}]}}
                                    Worker:
                                      replicas: 4
                                      template: {spec: {containers: [{name: w, resources: {requests: {nvidia.com/gpu: 8}}}]}}
                                """, GenericKubernetesResource.class),
                        new JobTranslator.Submit(new WorkloadSubmitted("team-a-mpi-abcdef01", "hyperpod-ns-team-a", "q",
                                "training-priority", "MPIJob", CREATED, List.of(
                                new PodSetSpec("launcher", 1, "ml.g5.8xlarge", res(null, "1", null), null, null),
                                new PodSetSpec("worker", 4, "ml.g5.8xlarge", res("8", null, null), null, null))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void translates(String name, JobKind kind, GenericKubernetesResource job, JobTranslator.Translation expected) {
        assertThat(TRANSLATOR.translate(kind, job)).isEqualTo(expected);
    }

    @org.junit.jupiter.api.Test
    void theWorkloadIdFollowsTheIdRuleEvenForTheLongestKubernetesNames() {
        GenericKubernetesResource plain = job("parallelism: 1", "spec: {}");
        assertThat(TRANSLATOR.workloadId(plain)).isEqualTo("team-a-train-01234567");
        GenericKubernetesResource longest = job("parallelism: 1", "spec: {}");
        longest.getMetadata().setName("a".repeat(200) + "." + "b".repeat(52));
        longest.getMetadata().setNamespace("hyperpod-ns-" + "t".repeat(51));
        String id = TRANSLATOR.workloadId(longest);
        assertThat(dev.taskgov.core.model.WorkloadIds.problem(id)).isEmpty();
        assertThat(id).hasSize(dev.taskgov.core.model.WorkloadIds.MAX_LENGTH).endsWith("-01234567").startsWith("t".repeat(51) + "-aaa");
    }
}
