package dev.taskgov.topology.ec2;

import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.ec2.Ec2Client;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTopologyRequest;
import software.amazon.awssdk.services.ec2.model.DescribeInstanceTopologyResponse;
import software.amazon.awssdk.services.ec2.model.Filter;
import software.amazon.awssdk.services.ec2.model.InstanceTopology;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Reads the instance topology from EC2 with the SDK's paginator. A poll is all or nothing: when any
 * page fails (after the client's own retries) the poll throws and the caller keeps what it had.
 */
public final class Ec2TopologySource {

    private final Ec2Client ec2;
    private final Ec2TopologyFilter filter;

    public Ec2TopologySource(Ec2Client ec2, Ec2TopologyFilter filter) {
        this.ec2 = ec2;
        this.filter = filter;
    }

    /**
     * Every instance in scope, keyed by instance id, in the order EC2 returned them.
     *
     * @throws Ec2PollException when EC2 refuses, throttles beyond the retries, or answers something unreadable
     */
    public Map<String, InstanceTopologyEntry> describe() {
        Map<String, InstanceTopologyEntry> out = new LinkedHashMap<>();
        try {
            for (DescribeInstanceTopologyResponse page : ec2.describeInstanceTopologyPaginator(request())) {
                for (InstanceTopology instance : page.instances()) {
                    if (instance.instanceId() == null) {
                        throw new Ec2PollException("DescribeInstanceTopology returned an instance without instanceId", null);
                    }
                    out.put(instance.instanceId(), new InstanceTopologyEntry(instance.instanceId(),
                            instance.instanceType(), instance.groupName(), instance.networkNodes()));
                }
            }
        } catch (SdkException e) {
            throw new Ec2PollException("DescribeInstanceTopology failed: " + e.getMessage(), e);
        }
        return out;
    }

    private DescribeInstanceTopologyRequest request() {
        DescribeInstanceTopologyRequest.Builder b = DescribeInstanceTopologyRequest.builder();
        if (!filter.instanceIds().isEmpty()) {
            b.instanceIds(filter.instanceIds());
        } else if (!filter.placementGroups().isEmpty()) {
            b.groupNames(filter.placementGroups());
        }
        if (!filter.instanceTypes().isEmpty()) {
            b.filters(Filter.builder().name("instance-type").values(filter.instanceTypes()).build());
        }
        if (filter.pageSize() != null) {
            b.maxResults(filter.pageSize());
        }
        return b.build();
    }
}
