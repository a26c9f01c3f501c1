package dev.taskgov.quota.capacity;

import dev.taskgov.core.resources.Resources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cluster as the topology topic describes it: the latest record of every node. Capacity per
 * instance type = the sum of the allocatable of its ready nodes.
 */
@ApplicationScoped
public class ClusterCapacity {

    private final Map<String, NodeCapacity> nodes = new ConcurrentHashMap<>();

    @Inject
    Event<CapacityChanged> changed;

    /** Fired after a node appeared, changed or left. */
    public record CapacityChanged(String nodeName) {
    }

    public void upsert(NodeCapacity node) {
        NodeCapacity before = nodes.put(node.name(), node);
        if (!node.equals(before)) {
            changed.fire(new CapacityChanged(node.name()));
        }
    }

    public void remove(String nodeName) {
        if (nodes.remove(nodeName) != null) {
            changed.fire(new CapacityChanged(nodeName));
        }
    }

    /** Allocatable of ready nodes, summed per instance type. */
    public Map<String, Resources> capacityByInstanceType() {
        Map<String, Resources> out = new TreeMap<>();
        for (NodeCapacity n : nodes.values()) {
            if (n.ready()) {
                out.merge(n.instanceType(), n.allocatable(), Resources::plus);
            }
        }
        return out;
    }

    /** Per instance type, the largest allocatable of one node seen: the totals of types no table knows. */
    public Map<String, Resources> learnedInstanceTotals() {
        Map<String, Resources> out = new TreeMap<>();
        for (NodeCapacity n : nodes.values()) {
            out.merge(n.instanceType(), n.allocatable(), Resources::max);
        }
        return out;
    }

    public int nodeCount() {
        return nodes.size();
    }
}
