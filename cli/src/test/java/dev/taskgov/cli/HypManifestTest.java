package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.manifests.ManifestKind;
import dev.taskgov.manifests.ManifestTranslator;
import dev.taskgov.testsupport.SeedCommands;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code create hyp-pytorch-job} builds its HyperPodPyTorchJob in code, pod template typed, and hands that object to the
 * shared manifests translator (no Jackson binding of the pod model on the command's path). The job watcher reads the same
 * job from the API server as text, its templates as maps. Both must give one workload: here the command's own
 * submission ({@code --print-manifest} prints it after the manifest) against the translation of the manifest it printed,
 * parsed from its YAML the way the watcher's objects arrive.
 */
class HypManifestTest {

    static StubServer admission;

    @BeforeAll
    static void admissionService() {
        // Seed 000 names no --instance-type: the command takes the one of the team's compute quota.
        admission = new StubServer().answer("GET /teams", 200, HypCommandsTest.TEAM_NAME_TEAMS);
    }

    @AfterAll
    static void close() {
        admission.close();
    }

    static Stream<Arguments> commands() {
        return Stream.of(
                Arguments.of("seed 000", SeedCommands.taskgovArguments(SeedCommands.SEED_000),
                        new PodSetSpec("pod", 1, "ml.p5.48xlarge", new ResourceAmounts(null, null, null), null,
                                "topology.k8s.aws/network-node-layer-1", Map.of())),
                Arguments.of("seed 002", SeedCommands.taskgovArguments(SeedCommands.SEED_002),
                        new PodSetSpec("pod", 1, "sample-instance-type", amounts("1", "3", "1"), null, null, Map.of())),
                Arguments.of("every flag the job carries", List.of("create", "hyp-pytorch-job", "--job-name", "all-flags",
                                "--image", "example/train:2", "--namespace", "hyperpod-ns-team-b", "--instance-type", "ml.trn1.32xlarge",
                                "--node-count", "4", "--tasks-per-node", "gpu", "--command", "[\"torchrun\", \"train.py\"]",
                                "--args", "[\"--epochs\", \"3\"]", "--environment", "{\"NCCL_DEBUG\": \"INFO\"}", "--pull-policy", "IfNotPresent",
                                "--label-selector", "{\"topology.k8s.aws/network-node-layer-3\": \"nn-7\"}",
                                "--deep-health-check-passed-nodes-only", "--scheduler-type", "custom", "--service-account-name", "trainer",
                                "--required-topology-label", "topology.k8s.aws/network-node-layer-2", "--priority", "low",
                                "--accelerators-limit", "16", "--vcpu", "500m", "--vcpu-limit", "2", "--memory-limit", "1.5"),
                        new PodSetSpec("pod", 4, "ml.trn1.32xlarge", amounts("16", "0.5", "1.5"), "topology.k8s.aws/network-node-layer-2", null,
                                Map.of("topology.k8s.aws/network-node-layer-3", "nn-7", "deep-health-check-passed", "true"))),
                Arguments.of("accelerator partitions: a count and a limit of one MIG profile", List.of("create", "hyp-pytorch-job",
                                "--job-name", "mig-job", "--image", "example/infer:1", "--namespace", "hyperpod-ns-team-b",
                                "--instance-type", "ml.p5.48xlarge", "--node-count", "3", "--accelerator-partition-type", "mig-1g.10gb",
                                "--accelerator-partition-count", "1", "--accelerator-partition-limit", "2"),
                        new PodSetSpec("pod", 3, "ml.p5.48xlarge", new ResourceAmounts(null, null, null, Map.of("mig-1g.10gb", BigDecimal.ONE)),
                                null, null, Map.of())),
                Arguments.of("accelerator partitions: a limit alone is the request", List.of("create", "hyp-pytorch-job",
                                "--job-name", "mig-limit", "--image", "example/infer:1", "--namespace", "hyperpod-ns-team-b",
                                "--instance-type", "ml.p5.48xlarge", "--accelerator-partition-type", "mig-3g.40gb",
                                "--accelerator-partition-limit", "2"),
                        new PodSetSpec("pod", 1, "ml.p5.48xlarge", new ResourceAmounts(null, null, null, Map.of("mig-3g.40gb", new BigDecimal("2"))),
                                null, null, Map.of())));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("commands")
    void theCommandSubmitsWhatTheWatcherReadsFromItsManifest(String name, List<String> command, PodSetSpec podSet) {
        List<String> args = new ArrayList<>(command);
        args.addAll(List.of("--print-manifest", "--admission-url", admission.url()));
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        String yaml = r.out().substring(0, r.out().indexOf("---\n"));
        WorkloadSubmitted submitted = EventCodec.read(r.out().substring(r.out().indexOf("---\n") + 4), WorkloadSubmitted.class);

        GenericKubernetesResource asTheWatcherReadsIt = ManifestTranslator.parse(yaml);
        @SuppressWarnings("unchecked")
        Map<String, Object> replica = ((List<Map<String, Object>>) ((Map<String, Object>) asTheWatcherReadsIt.getAdditionalProperties()
                .get("spec")).get("replicaSpecs")).get(0);
        assertThat(replica.get("template")).isInstanceOf(Map.class).isNotInstanceOf(PodTemplateSpec.class);
        WorkloadSubmitted read = ManifestTranslator.translate(ManifestKind.HYPERPOD_PYTORCH_JOB, asTheWatcherReadsIt,
                ManifestTranslator.Overrides.NONE, submitted.submittedAt()).submission();

        // What the command adds to the translation: --max-retry (when given) as its annotation.
        Map<String, String> maxRetry = args.contains("--max-retry")
                ? Map.of(WorkloadSubmitted.MAX_RETRY_ANNOTATION, args.get(args.indexOf("--max-retry") + 1)) : Map.of();
        assertThat(submitted).isEqualTo(read.withAnnotations(maxRetry));
        assertThat(submitted.podSets()).containsExactly(podSet);
    }

    static ResourceAmounts amounts(String accelerators, String vcpu, String memoryGiB) {
        return new ResourceAmounts(new BigDecimal(accelerators), new BigDecimal(vcpu), new BigDecimal(memoryGiB));
    }
}
