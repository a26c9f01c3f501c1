package dev.taskgov.topology.kubernetes;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

class KubernetesNodeMapperTest {

    static Stream<Arguments> nodes() {
        return Stream.of(
                arguments("a ready p5 node with GPUs",
                        k8s("p5-a").providerId("aws:///us-west-2a/i-0abc").type("ml.p5.48xlarge")
                                .alloc("nvidia.com/gpu", "8").alloc("cpu", "191500m").alloc("memory", "2047Gi").ready("True"),
                        new Node("p5-a", "i-0abc", "ml.p5.48xlarge", Map.of(TopologyLevels.HOSTNAME, "p5-a"),
                                Resources.of(8, 191_500, 2047 * 1024), true)),
                arguments("a p5 node in MIG mode: nvidia.com/mig-* are partitions, the GPUs left whole are accelerators",
                        k8s("p5-mig").providerId("aws:///us-west-2a/i-0abd").type("ml.p5.48xlarge")
                                .alloc("nvidia.com/gpu", "1").alloc("nvidia.com/mig-1g.10gb", "42").alloc("nvidia.com/mig-3g.40gb", "2")
                                .alloc("cpu", "192").alloc("memory", "2048Gi").ready("True"),
                        new Node("p5-mig", "i-0abd", "ml.p5.48xlarge", Map.of(TopologyLevels.HOSTNAME, "p5-mig"),
                                Resources.of(1, 192_000, 2048 * 1024).plus(Resources.partitions(Map.of("mig-1g.10gb", 42L, "mig-3g.40gb", 2L))),
                                true)),
                arguments("Neuron devices count as accelerators, memory in Ki rounds down to MiB",
                        k8s("trn").providerId("aws:///us-west-2b/i-0def").type("ml.trn1.32xlarge")
                                .alloc("aws.amazon.com/neuron", "16").alloc("cpu", "128").alloc("memory", "1049600Ki").ready("True"),
                        new Node("trn", "i-0def", "ml.trn1.32xlarge", Map.of(TopologyLevels.HOSTNAME, "trn"),
                                Resources.of(16, 128_000, 1025), true)),
                arguments("NotReady",
                        k8s("n").type("t").ready("False"),
                        new Node("n", null, "t", Map.of(TopologyLevels.HOSTNAME, "n"), Resources.ZERO, false)),
                arguments("cordoned is not ready for taskgov",
                        k8s("n").type("t").ready("True").cordoned(),
                        new Node("n", null, "t", Map.of(TopologyLevels.HOSTNAME, "n"), Resources.ZERO, false)),
                arguments("no Ready condition",
                        k8s("n").type("t"),
                        new Node("n", null, "t", Map.of(TopologyLevels.HOSTNAME, "n"), Resources.ZERO, false)),
                arguments("topology labels and hostname kept, other labels dropped, legacy type label",
                        k8s("n").label(TopologyLevels.LAYER_3, "nn-r1").label(TopologyLevels.HOSTNAME, "host-n").label("team", "a")
                                .label("beta.kubernetes.io/instance-type", "old").ready("True"),
                        new Node("n", null, "old", Map.of(TopologyLevels.LAYER_3, "nn-r1", TopologyLevels.HOSTNAME, "host-n"),
                                Resources.ZERO, true)),
                arguments("a provider id that is not an EC2 instance",
                        k8s("kind").providerId("kind://docker/kind/kind-worker").ready("True"),
                        new Node("kind", null, "unknown", Map.of(TopologyLevels.HOSTNAME, "kind"), Resources.ZERO, true)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("nodes")
    void mapsAKubernetesNode(String name, K8sNode given, Node expected) {
        assertThat(KubernetesNodeMapper.toNode(given.build())).isEqualTo(expected);
    }

    static K8sNode k8s(String name) {
        return new K8sNode(name);
    }

    /** A small builder of Kubernetes nodes for the table. */
    static final class K8sNode {
        final String name;
        final Map<String, String> labels = new HashMap<>();
        final Map<String, Quantity> alloc = new HashMap<>();
        String providerId;
        String ready;
        boolean cordoned;

        K8sNode(String name) {
            this.name = name;
        }

        K8sNode providerId(String id) { providerId = id; return this; }
        K8sNode type(String type) { return label(KubernetesNodeMapper.INSTANCE_TYPE_LABEL, type); }
        K8sNode label(String k, String v) { labels.put(k, v); return this; }
        K8sNode alloc(String r, String q) { alloc.put(r, new Quantity(q)); return this; }
        K8sNode ready(String status) { ready = status; return this; }
        K8sNode cordoned() { cordoned = true; return this; }

        io.fabric8.kubernetes.api.model.Node build() {
            NodeBuilder b = new NodeBuilder().withNewMetadata().withName(name).withLabels(labels).endMetadata()
                    .withNewSpec().withProviderID(providerId).withUnschedulable(cordoned ? true : null).endSpec()
                    .withNewStatus().withAllocatable(alloc).endStatus();
            if (ready != null) {
                b.editStatus().addNewCondition().withType("Ready").withStatus(ready).endCondition().endStatus();
            }
            return b.build();
        }

        @Override
        public String toString() {
            return name;
        }
    }
}
