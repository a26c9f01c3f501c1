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

    static ResourceAmounts res(String acc, String vcpu, String mem) {
        return new ResourceAmounts(acc == null ? null : new BigDecimal(acc), vcpu == null ? null : new BigDecimal(vcpu),
                mem == null ? null : new BigDecimal(mem));
    }

    static Arguments c(String name, GenericKubernetesResource job, JobTranslator.Translation expected) {
        return Arguments.of(name, JobKind.JOB, job, expected);
    }

    /**
     * The watcher's own rules; the translation's rules (requests, topology, node selectors, kinds) are
     * {@code ManifestTranslatorTest}'s table in the manifests module, which this class calls.
     */
    static Stream<Arguments> cases() {
        return Stream.of(
                c("the workload id from team, name and UID; submitted at the job's creation", job("parallelism: 4", """
                        spec:
                          nodeSelector: {node.kubernetes.io/instance-type: ml.p5.48xlarge}
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 8, cpu: 500m, memory: 1Gi}}"""),
                        main(4, "ml.p5.48xlarge", res("8", "0.5", "1"), null, null)),
                c("no instance-type label: the team's only configured instance type", job("", """
                        spec:
                          containers:
                          - name: c
                            resources: {limits: {aws.amazon.com/neuron: 2, cpu: 2}}"""),
                        main(1, "ml.g5.8xlarge", res("2", "2", null), null, null)),
                Arguments.of("no instance-type label and no configured one for the team", JobKind.JOB,
                        withNamespace(job("", "spec: {containers: [{name: c, resources: {requests: {cpu: 1}}}]}"), "hyperpod-ns-team-b"),
                        new JobTranslator.Invalid("UnknownInstanceType", "spec.template.spec.nodeSelector: no node.kubernetes.io/instance-type "
                                + "label, and no default instance type for the team (team team-b has no single configured instance type)")),
                c("a job that requests nothing is refused: the quota could not count it", job("", """
                        spec:
                          containers:
                          - name: c"""),
                        new JobTranslator.Invalid("NoRequests", "every container requests zero resources: set resources.requests "
                                + "(nvidia.com/gpu, nvidia.com/mig-<profile>, aws.amazon.com/neuron, cpu, memory) so the quota can count the job")),
                c("a translation rule broken: the shared translator's reason and message", job("parallelism: 0", """
                        spec:
                          containers:
                          - name: c
                            resources: {requests: {nvidia.com/gpu: 1}}"""),
                        new JobTranslator.Invalid("InvalidSpec", "spec.template: the pod count must be at least 1, was 0")));
    }

    static GenericKubernetesResource withNamespace(GenericKubernetesResource job, String namespace) {
        job.getMetadata().setNamespace(namespace);
        return job;
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
