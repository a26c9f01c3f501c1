package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One pod set to place: {@code count} identical pods of an instance type.
 *
 * @param name         pod set name, unique within its workload
 * @param count        number of pods, at least 1
 * @param instanceType the instance type every pod must run on
 * @param perPod       what each pod requests
 * @param topology     the topology constraint
 * @param nodeSelector node labels a node must carry with these values to hold any of the pods
 *                     (see {@link Node#matches(Map)}); empty for none
 */
public record PodSetRequest(String name, int count, String instanceType, Resources perPod, TopologyRequest topology,
                            Map<String, String> nodeSelector) {

    public PodSetRequest {
        topology = topology == null ? TopologyRequest.NONE : topology;
        perPod = perPod == null ? Resources.ZERO : perPod;
        nodeSelector = nodeSelector == null || nodeSelector.isEmpty() ? Map.of()
                : Collections.unmodifiableMap(new TreeMap<>(nodeSelector));
    }

    /** A pod set that may run on any node of its instance type. */
    public PodSetRequest(String name, int count, String instanceType, Resources perPod, TopologyRequest topology) {
        this(name, count, instanceType, perPod, topology, Map.of());
    }

    /** What the whole pod set requests: per-pod times count. */
    public Resources total() {
        return perPod.times(count);
    }

    /** The same pod set with another topology request (the node selector is kept). */
    public PodSetRequest withTopology(TopologyRequest topology) {
        return new PodSetRequest(name, count, instanceType, perPod, topology, nodeSelector);
    }
}
