package dev.taskgov.cli;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code -f}: the CLI reads a manifest with the shared translator (its rules are tabled in the manifests
 * module's ManifestTranslatorTest), lets flags override, and names the flag that would fill a gap.
 */
class ManifestTranslationTest {

    static final Instant AT = Instant.parse("2026-11-30T10:00:00Z");
    static final String P5 = "ml.p5.48xlarge";

    @Test
    void flagsOverrideNameNamespaceAndPriorityAndFillTheInstanceType() {
        WorkloadOptions o = options(manifest("seed-000-pytorchjob.yaml"));
        o.jobName = "run-2";
        o.team = "team-a";
        o.priority = "inference-priority";
        o.instanceType = P5;

        assertThat(o.submission(AT, new PrintWriter(new StringWriter()))).isEqualTo(new WorkloadSubmitted("run-2", "hyperpod-ns-team-a",
                "hyperpod-ns-team-name-localqueue", "inference-priority", "PyTorchJob", AT, List.of(
                new PodSetSpec("master", 1, P5, amounts(null, null, null), null, null),
                new PodSetSpec("worker", 10, P5, amounts(null, "1", "0.1953125"), null, null)),
                Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727")));
    }

    @Test
    void theImageFlagReplacesTheManifestsImages() {
        WorkloadOptions o = options(manifest("seed-000-pytorchjob.yaml"));
        o.instanceType = P5;
        o.image = "example/train:2";

        assertThat(o.submission(AT, new PrintWriter(new StringWriter())).annotations())
                .isEqualTo(Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "example/train:2"));
    }

    @Test
    void aMissingInstanceTypeNamesTheFlagThatGivesIt() {
        assertThatThrownBy(() -> options(manifest("seed-000-pytorchjob.yaml")).submission(AT, new PrintWriter(new StringWriter())))
                .isInstanceOfSatisfying(CliException.class, e -> {
                    assertThat(e.exitCode()).isEqualTo(CliException.INVALID_INPUT);
                    assertThat(e.getMessage()).isEqualTo("spec.pytorchReplicaSpecs.Master.template.spec.nodeSelector: no "
                            + "node.kubernetes.io/instance-type label, and no default instance type for the team; add it or give --instance-type");
                });
    }

    @Test
    void aMissingNamespaceNamesTheFlagThatGivesIt() throws Exception {
        Path file = Files.createTempFile("job", ".yaml");
        Files.writeString(file, "kind: Job\nmetadata: {name: x}\n");
        assertThatThrownBy(() -> options(file.toString()).submission(AT, new PrintWriter(new StringWriter())))
                .isInstanceOfSatisfying(CliException.class, e -> assertThat(e.getMessage())
                        .isEqualTo("metadata.namespace: required, the team's namespace such as hyperpod-ns-team-a (or give --namespace)"));
    }

    static WorkloadOptions options(String file) {
        WorkloadOptions o = new WorkloadOptions();
        o.file = file;
        return o;
    }

    /** A manifest of the manifests module's table test (one copy of each file in the repository). */
    static String manifest(String name) {
        return Path.of("..", "manifests", "src", "test", "resources", "manifests", name).toString();
    }

    static ResourceAmounts amounts(String accelerators, String vcpu, String memoryGiB) {
        return new ResourceAmounts(accelerators == null ? null : new BigDecimal(accelerators), vcpu == null ? null : new BigDecimal(vcpu),
                memoryGiB == null ? null : new BigDecimal(memoryGiB));
    }
}
