package dev.taskgov.topology.ec2;

import java.util.List;

/**
 * One instance as {@code DescribeInstanceTopology} reports it.
 *
 * @param instanceId   EC2 instance id
 * @param instanceType EC2 instance type (e.g. {@code p5.48xlarge})
 * @param groupName    placement group, or null
 * @param networkNodes network nodes from the top of the hierarchy down (layer-1 first)
 */
public record InstanceTopologyEntry(String instanceId, String instanceType, String groupName, List<String> networkNodes) {
    public InstanceTopologyEntry {
        networkNodes = networkNodes == null ? List.of() : List.copyOf(networkNodes);
    }
}
