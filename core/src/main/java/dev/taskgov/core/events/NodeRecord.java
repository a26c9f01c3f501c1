package dev.taskgov.core.events;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;

import java.util.Map;

/**
 * A node (value of {@code taskgov.topology}, and the node shape of scenario files).
 *
 * @param allocatable per resource; a missing field takes the instance type's capacity
 * @param ready       null means true
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record NodeRecord(String name, String instanceId, String instanceType, Map<String, String> labels,
                         ResourceAmounts allocatable, Boolean ready) {

    /** The node, with missing allocatable amounts taken from its instance type (when known). */
    public Node toNode(Map<String, InstanceType> instanceTypes) {
        InstanceType type = instanceTypes.get(instanceType);
        Resources base = type == null ? Resources.ZERO : type.capacity();
        Resources alloc = base;
        if (allocatable != null) {
            Resources given = allocatable.toResources();
            alloc = Resources.of(allocatable.accelerators() != null ? given.accelerators() : base.accelerators(),
                    allocatable.vcpu() != null ? given.milliVcpu() : base.milliVcpu(),
                    allocatable.memoryGiB() != null ? given.memoryMiB() : base.memoryMiB());
        }
        return new Node(name, instanceId, instanceType, labels, alloc, ready == null || ready);
    }

    /** The record of a node (allocatable written in full). */
    public static NodeRecord of(Node node) {
        return new NodeRecord(node.name(), node.instanceId(), node.instanceType(), node.labels(),
                ResourceAmounts.of(node.allocatable()), node.ready());
    }
}
