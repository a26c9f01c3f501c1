package dev.taskgov.topology.kubernetes;

import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Writes the network-node layer labels onto a Kubernetes node, only when they differ from what
 * the node carries: a layer EC2 reports is set, a layer it does not report is removed.
 */
public final class NodeLabeler {

    /** The three layer labels, broadest first. */
    public static final List<String> LAYERS = TopologyLevels.ALL.subList(0, 3);

    private final KubernetesClient client;

    public NodeLabeler(KubernetesClient client) {
        this.client = client;
    }

    /** The labels to set (a null value = remove) so that the node's layers equal {@code desired}; empty when nothing differs. */
    public static Map<String, String> changes(Map<String, String> current, Map<String, String> desired) {
        Map<String, String> out = new HashMap<>();
        for (String layer : LAYERS) {
            String want = desired.get(layer);
            String have = current == null ? null : current.get(layer);
            if (!Objects.equals(want, have)) {
                out.put(layer, want);
            }
        }
        return out;
    }

    /** Patches the node when its layer labels differ; returns whether it wrote. */
    public boolean apply(Node node, Map<String, String> desired) {
        Map<String, String> changes = changes(node.getMetadata().getLabels(), desired);
        if (changes.isEmpty()) {
            return false;
        }
        client.nodes().withName(node.getMetadata().getName()).edit(n -> {
            Map<String, String> labels = n.getMetadata().getLabels() == null
                    ? new HashMap<>() : new HashMap<>(n.getMetadata().getLabels());
            changes.forEach((k, v) -> {
                if (v == null) labels.remove(k);
                else labels.put(k, v);
            });
            n.getMetadata().setLabels(labels);
            return n;
        });
        return true;
    }
}
