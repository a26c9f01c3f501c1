package dev.taskgov.topology.inventory;

import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.topology.ec2.InstanceTopologyEntry;
import dev.taskgov.topology.kubernetes.NodeLabeler;
import dev.taskgov.topology.model.InstanceTypeCatalog;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Builds the node inventory from what the sources saw. Pure: no I/O. */
public final class InventoryAssembler {

    private InventoryAssembler() {
    }

    /** The layer labels for EC2's network nodes, top first: index 0 → layer-1, 1 → layer-2, 2 → layer-3. */
    public static Map<String, String> layerLabels(List<String> networkNodes) {
        Map<String, String> out = new TreeMap<>();
        for (int i = 0; i < Math.min(networkNodes.size(), NodeLabeler.LAYERS.size()); i++) {
            out.put(NodeLabeler.LAYERS.get(i), networkNodes.get(i));
        }
        return out;
    }

    /**
     * EC2 alone: one node per instance, named by its instance id, capacity from the catalog; an
     * instance without network nodes (not running, or a type without topology) is not ready.
     */
    public static Map<String, Node> fromEc2(Collection<InstanceTopologyEntry> instances, InstanceTypeCatalog catalog) {
        Map<String, Node> out = new TreeMap<>();
        for (InstanceTopologyEntry i : instances) {
            Map<String, String> labels = new TreeMap<>(layerLabels(i.networkNodes()));
            labels.put(TopologyLevels.HOSTNAME, i.instanceId());
            String type = i.instanceType() == null ? "unknown" : catalog.canonicalName(i.instanceType());
            out.put(i.instanceId(), new Node(i.instanceId(), i.instanceId(), type, labels,
                    catalog.capacity(type).orElse(null), !i.networkNodes().isEmpty()));
        }
        return out;
    }

    /**
     * Kubernetes nodes, their layer labels replaced by EC2's for instances EC2 reported with network
     * nodes (the labels the service writes); other nodes keep the labels they carry.
     */
    public static Map<String, Node> fromKubernetes(Collection<Node> kubeNodes, Map<String, InstanceTopologyEntry> ec2ByInstanceId) {
        Map<String, Node> out = new TreeMap<>();
        for (Node n : kubeNodes) {
            InstanceTopologyEntry ec2 = n.instanceId() == null ? null : ec2ByInstanceId.get(n.instanceId());
            Node node = n;
            if (ec2 != null && !ec2.networkNodes().isEmpty()) {
                Map<String, String> labels = new TreeMap<>(n.labels());
                NodeLabeler.LAYERS.forEach(labels::remove);
                labels.putAll(layerLabels(ec2.networkNodes()));
                node = new Node(n.name(), n.instanceId(), n.instanceType(), labels, n.allocatable(), n.ready());
            }
            out.put(node.name(), node);
        }
        return out;
    }

    /** Static nodes: as given, with the hostname level defaulting to the node's name. */
    public static Map<String, Node> fromStatic(Collection<Node> nodes) {
        Map<String, Node> out = new TreeMap<>();
        for (Node n : nodes) {
            Map<String, String> labels = new TreeMap<>(n.labels());
            labels.putIfAbsent(TopologyLevels.HOSTNAME, n.name());
            out.put(n.name(), new Node(n.name(), n.instanceId(), n.instanceType(), labels, n.allocatable(), n.ready()));
        }
        return out;
    }
}
