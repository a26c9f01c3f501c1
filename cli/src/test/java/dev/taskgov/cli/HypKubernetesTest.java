package dev.taskgov.cli;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 002's command with {@code --kubernetes}: the HyperPodPyTorchJob lands in the cluster (fabric8's
 * mock API server, CRUD) suspended, with the labels, replica spec, run policy and resources the job
 * watcher reads; the CLI finds the API server the way kubectl does (here fabric8's system properties).
 */
@EnableKubernetesMockClient(crud = true, https = false)
class HypKubernetesTest {

    static KubernetesClient client;

    static final ResourceDefinitionContext HYPERPOD = new ResourceDefinitionContext.Builder()
            .withGroup("sagemaker.amazonaws.com").withVersion("v1").withKind("HyperPodPyTorchJob")
            .withPlural("hyperpodpytorchjobs").withNamespaced(true).build();

    @BeforeEach
    void pointAtTheMockServer() {
        System.setProperty("kubernetes.master", client.getConfiguration().getMasterUrl());
        System.setProperty("kubernetes.auth.tryKubeConfig", "false");
        System.setProperty("kubernetes.auth.tryServiceAccount", "false");
    }

    @AfterEach
    void clear() {
        System.clearProperty("kubernetes.master");
        System.clearProperty("kubernetes.auth.tryKubeConfig");
        System.clearProperty("kubernetes.auth.tryServiceAccount");
    }

    @Test
    @SuppressWarnings("unchecked")
    void seed002WithKubernetesCreatesTheSuspendedHyperpodPytorchJobTheWatcherGoverns() {
        List<String> args = new ArrayList<>(List.of(HypCommandsTest.asTaskgov(HypCommandsTest.SEED_002)));
        args.add("--kubernetes");
        Cli.Result r = Cli.run(args.toArray(String[]::new));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("hyperpodpytorchjob.sagemaker.amazonaws.com/sample-job created in hyperpod-ns-team-name",
                "Honoured:\n  --max-retry: 1 (the HyperPod operator restarts the failed job up to 1 time, runPolicy.jobMaxRetryCount");

        GenericKubernetesResource job = client.genericKubernetesResources(HYPERPOD).inNamespace("hyperpod-ns-team-name")
                .withName("sample-job").get();
        assertThat(job.getMetadata().getLabels()).containsEntry("kueue.x-k8s.io/queue-name", "hyperpod-ns-team-name-localqueue")
                .containsEntry("kueue.x-k8s.io/priority-class", "high-priority");
        Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
        assertThat((Map<String, Object>) spec.get("runPolicy")).containsEntry("suspend", true).containsEntry("jobMaxRetryCount", 1);
        Map<String, Object> replica = ((List<Map<String, Object>>) spec.get("replicaSpecs")).get(0);
        assertThat(replica).containsEntry("name", "pod").containsEntry("replicas", 1);
        Map<String, Object> podSpec = (Map<String, Object>) ((Map<String, Object>) replica.get("template")).get("spec");
        assertThat((Map<String, Object>) podSpec.get("nodeSelector")).containsEntry("node.kubernetes.io/instance-type", "sample-instance-type");
        Map<String, Object> container = ((List<Map<String, Object>>) podSpec.get("containers")).get(0);
        assertThat(container).containsEntry("image", "123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest")
                .containsEntry("imagePullPolicy", "Always");
        assertThat(container.get("resources")).isEqualTo(Map.of(
                "requests", Map.of("nvidia.com/gpu", "1", "cpu", "3", "memory", "1Gi"),
                "limits", Map.of("nvidia.com/gpu", "1", "cpu", "4", "memory", "2Gi")));
    }
}
