package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.Map;
import java.util.Objects;

/**
 * A cluster node as taskgov sees it (the value of a {@code taskgov.topology} record).
 *
 * @param name         node name, unique in the cluster
 * @param instanceId   EC2 instance id, or {@code null} when unknown
 * @param instanceType instance type such as {@code ml.p5.48xlarge}
 * @param labels       node labels; topology levels missing here are the empty value, except
 *                     {@code kubernetes.io/hostname} which defaults to the node's name
 * @param allocatable  what pods may use on it
 * @param ready        a node that is not ready holds nothing
 */
public record Node(String name, String instanceId, String instanceType, Map<String, String> labels,
                   Resources allocatable, boolean ready) {

    public Node {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(instanceType, "instanceType");
        labels = labels == null ? Map.of() : Map.copyOf(labels);
        allocatable = allocatable == null ? Resources.ZERO : allocatable;
    }

    /** The node's value at a topology level: the label, the node name for the hostname level when absent, else "". */
    public String levelValue(String level) {
        String v = labels.get(level);
        if (v != null) return v;
        return TopologyLevels.HOSTNAME.equals(level) ? name : "";
    }

    /** The well-known label of a node's instance type, which {@link #matches} reads from {@link #instanceType}. */
    public static final String INSTANCE_TYPE_LABEL = "node.kubernetes.io/instance-type";

    /**
     * Whether the node carries every label of a node selector with its value (Kubernetes
     * nodeSelector semantics). Topology levels read as {@link #levelValue}, so
     * {@code kubernetes.io/hostname} defaults to the name; {@link #INSTANCE_TYPE_LABEL} defaults
     * to the instance type.
     */
    public boolean matches(Map<String, String> selector) {
        for (Map.Entry<String, String> e : selector.entrySet()) {
            String key = e.getKey();
            String have = labels.get(key);
            if (have == null) {
                if (TopologyLevels.isKnown(key)) have = levelValue(key);
                else if (INSTANCE_TYPE_LABEL.equals(key)) have = instanceType;
            }
            if (have == null || !have.equals(e.getValue())) return false;
        }
        return true;
    }
}
