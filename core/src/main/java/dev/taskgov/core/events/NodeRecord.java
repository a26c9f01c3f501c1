package dev.taskgov.core.events;

import dev.taskgov.core.cluster.InCluster;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.Violation;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A node (value of {@code taskgov.topology}, and the node shape of scenario files).
 *
 * @param allocatable per resource; a missing field takes the instance type's capacity
 * @param ready       null means true
 * @param clusterArn  the node's cluster; null: the unnamed cluster of a deployment whose records name none. On
 *                    {@code taskgov.topology} the key ({@code <ClusterArn>#<name>}) says the same and wins
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeRecord(String name, String instanceId, String instanceType, Map<String, String> labels,
                         ResourceAmounts allocatable, Boolean ready, String clusterArn) implements InCluster {

    /** A node of no named cluster. */
    public NodeRecord(String name, String instanceId, String instanceType, Map<String, String> labels,
                      ResourceAmounts allocatable, Boolean ready) {
        this(name, instanceId, instanceType, labels, allocatable, ready, null);
    }

    /** A copy in a cluster (null: none named). */
    public NodeRecord withClusterArn(String cluster) {
        return new NodeRecord(name, instanceId, instanceType, labels, allocatable, ready, cluster);
    }

    /** CloudEvents {@code ce_type} of a node record. */
    public static final String TYPE = "dev.taskgov.topology.node";
    /** CloudEvents {@code ce_type} of the tombstone of a node that left. */
    public static final String REMOVED_TYPE = "dev.taskgov.topology.node.removed";


    /** The node, with missing allocatable amounts taken from its instance type (when known). */
    public Node toNode(Map<String, InstanceType> instanceTypes) {
        InstanceType type = instanceTypes.get(instanceType);
        Resources base = type == null ? Resources.ZERO : type.capacity();
        Resources alloc = base;
        if (allocatable != null) {
            Resources given = allocatable.toResources();
            alloc = new Resources(allocatable.accelerators() != null ? given.accelerators() : base.accelerators(),
                    allocatable.vcpu() != null ? given.milliVcpu() : base.milliVcpu(),
                    allocatable.memoryGiB() != null ? given.memoryMiB() : base.memoryMiB(),
                    // Partitions given replace the type's as a whole: a node's MIG layout is its own.
                    allocatable.partitions() != null ? given.partitions() : base.partitions());
        }
        return new Node(name, instanceId, instanceType, labels, alloc, ready == null || ready);
    }

    /**
     * The node, after checking {@link #violations()}.
     *
     * @throws IllegalArgumentException naming each broken rule's field
     */
    public Node toValidNode(Map<String, InstanceType> instanceTypes) {
        List<Violation> v = violations();
        if (!v.isEmpty()) throw new IllegalArgumentException(String.join("; ", v.stream().map(Violation::toString).toList()));
        return toNode(instanceTypes);
    }

    /** The record of a node: allocatable written in full, labels in key order (equal nodes give equal bytes). */
    public static NodeRecord of(Node node) {
        return new NodeRecord(node.name(), node.instanceId(), node.instanceType(), new TreeMap<>(node.labels()),
                ResourceAmounts.full(node.allocatable()), node.ready());
    }

    /** The rules a node record breaks, each naming its field: name and instanceType present, no negative amount. */
    public List<Violation> violations() {
        List<Violation> v = new ArrayList<>();
        if (name == null || name.isBlank()) v.add(new Violation("name", "is required"));
        if (instanceType == null || instanceType.isBlank()) v.add(new Violation("instanceType", "is required"));
        if (clusterArn != null) dev.taskgov.core.cluster.ClusterArn.problem(clusterArn).ifPresent(p -> v.add(new Violation("clusterArn", p)));
        if (allocatable != null) {
            for (ResourceName r : ResourceName.values()) {
                BigDecimal amount = allocatable.get(r);
                if (amount != null && amount.signum() < 0) {
                    v.add(new Violation("allocatable." + r.jsonName(), "must not be negative, was " + amount.toPlainString()));
                }
            }
            v.addAll(allocatable.partitionViolations("allocatable"));
        }
        return v;
    }
}
