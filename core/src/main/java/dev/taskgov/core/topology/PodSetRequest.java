package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

/**
 * One pod set to place: {@code count} identical pods of an instance type.
 *
 * @param name         pod set name, unique within its workload
 * @param count        number of pods, at least 1
 * @param instanceType the instance type every pod must run on
 * @param perPod       what each pod requests
 * @param topology     the topology constraint
 */
public record PodSetRequest(String name, int count, String instanceType, Resources perPod, TopologyRequest topology) {

    public PodSetRequest {
        topology = topology == null ? TopologyRequest.NONE : topology;
        perPod = perPod == null ? Resources.ZERO : perPod;
    }

    /** What the whole pod set requests: per-pod times count. */
    public Resources total() {
        return perPod.times(count);
    }
}
