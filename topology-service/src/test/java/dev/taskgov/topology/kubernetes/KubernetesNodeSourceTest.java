package dev.taskgov.topology.kubernetes;

import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The informer and the labeler against fabric8's mock API server in CRUD mode. */
@EnableKubernetesMockClient(crud = true)
class KubernetesNodeSourceTest {

    KubernetesMockServer server;
    KubernetesClient client;
    KubernetesNodeSource source;
    final AtomicInteger changes = new AtomicInteger();

    @AfterEach
    void stop() {
        if (source != null) source.close();
    }

    @Test
    void seesNodesAndTheirChangesAndLabelsOnlyWhatDiffers() {
        client.nodes().resource(node("n1", "i-01", "True")).create();
        client.nodes().resource(node("n2", "i-02", "True")).create();
        source = new KubernetesNodeSource(client, Duration.ofMinutes(10), changes::incrementAndGet);
        source.start();
        await().atMost(Duration.ofSeconds(20)).until(() -> source.hasSynced() && source.nodes().size() == 2);

        NodeLabeler labeler = new NodeLabeler(client);
        Map<String, String> layers = Map.of(TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-b1", TopologyLevels.LAYER_3, "nn-b1-r1");
        assertThat(labeler.apply(source.nodes().get(0), layers)).isTrue();
        assertThat(client.nodes().withName("n1").get().getMetadata().getLabels()).containsAllEntriesOf(layers)
                .containsEntry(KubernetesNodeMapper.INSTANCE_TYPE_LABEL, "ml.p5.48xlarge");
        await().atMost(Duration.ofSeconds(20)).until(() -> source.nodes().get(0).getMetadata().getLabels().containsKey(TopologyLevels.LAYER_3));
        assertThat(labeler.apply(source.nodes().get(0), layers)).as("nothing to write the second time").isFalse();

        int before = changes.get();
        client.nodes().withName("n2").editStatus(n -> new NodeBuilder(n).editStatus().editFirstCondition().withStatus("False")
                .endCondition().endStatus().build());
        await().atMost(Duration.ofSeconds(20)).until(() -> changes.get() > before
                && !KubernetesNodeMapper.isReady(source.nodes().get(1)));

        client.nodes().withName("n1").delete();
        await().atMost(Duration.ofSeconds(20)).until(() -> source.nodes().size() == 1);
        assertThat(source.nodes().get(0).getMetadata().getName()).isEqualTo("n2");
    }

    static Node node(String name, String instanceId, String ready) {
        return new NodeBuilder().withNewMetadata().withName(name)
                .addToLabels(KubernetesNodeMapper.INSTANCE_TYPE_LABEL, "ml.p5.48xlarge").endMetadata()
                .withNewSpec().withProviderID("aws:///us-west-2a/" + instanceId).endSpec()
                .withNewStatus().addToAllocatable("nvidia.com/gpu", new Quantity("8")).addToAllocatable("cpu", new Quantity("192"))
                .addToAllocatable("memory", new Quantity("2048Gi"))
                .addNewCondition().withType("Ready").withStatus(ready).endCondition().endStatus().build();
    }
}
