package dev.taskgov.topology.ec2;

import java.util.List;

/**
 * What to ask {@code DescribeInstanceTopology} for; empty lists mean no restriction.
 * EC2 accepts instance ids or placement group names, not both, so ids win when both are given.
 */
public record Ec2TopologyFilter(List<String> instanceIds, List<String> placementGroups, List<String> instanceTypes,
                                Integer pageSize) {
    public Ec2TopologyFilter {
        instanceIds = instanceIds == null ? List.of() : List.copyOf(instanceIds);
        placementGroups = placementGroups == null ? List.of() : List.copyOf(placementGroups);
        instanceTypes = instanceTypes == null ? List.of() : List.copyOf(instanceTypes);
    }

    public static Ec2TopologyFilter none() {
        return new Ec2TopologyFilter(List.of(), List.of(), List.of(), null);
    }
}
