package dev.taskgov.quota.capacity;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsApiException;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The governed clusters as the topology topic describes them: the clusters topology-service declares,
 * and the latest record of every node of each. Capacity per cluster and instance type = the sum of the
 * allocatable of its ready nodes; one cluster's nodes never count towards another's quota sums.
 */
@ApplicationScoped
public class ClusterCapacity {

    private final Map<ClusterArn, Map<String, NodeCapacity>> nodes = new ConcurrentHashMap<>();
    private final Set<ClusterArn> declared = ConcurrentHashMap.newKeySet();

    @Inject
    Event<CapacityChanged> changed;

    @Inject
    TopologyCatchUp catchUp;

    /** Fired after a node appeared, changed or left, or a cluster was declared or withdrawn. */
    public record CapacityChanged(ClusterArn cluster, String nodeName) {
    }

    public void upsert(ClusterArn cluster, NodeCapacity node) {
        NodeCapacity before = nodes.computeIfAbsent(cluster, c -> new ConcurrentHashMap<>()).put(node.name(), node);
        if (!node.equals(before)) {
            changed.fire(new CapacityChanged(cluster, node.name()));
        }
    }

    public void remove(ClusterArn cluster, String nodeName) {
        Map<String, NodeCapacity> of = nodes.get(cluster);
        if (of != null && of.remove(nodeName) != null) {
            changed.fire(new CapacityChanged(cluster, nodeName));
        }
    }

    /** topology-service declared (true) or withdrew (false) a cluster. */
    public void declare(ClusterArn cluster, boolean governed) {
        boolean changedNow = governed ? declared.add(cluster) : declared.remove(cluster);
        if (changedNow) changed.fire(new CapacityChanged(cluster, null));
    }

    /** The clusters the deployment governs: declared ones and any with a node (named ones only: a quota names its ARN). */
    public SortedSet<ClusterArn> governed() {
        SortedSet<ClusterArn> out = new TreeSet<>(declared);
        nodes.forEach((c, n) -> {
            if (!n.isEmpty()) out.add(c);
        });
        out.remove(ClusterArn.UNNAMED);
        return out;
    }

    /**
     * Refuses a quota or scheduler config for a cluster the deployment does not govern, as SageMaker refuses an
     * unknown cluster: {@code ResourceNotFound}, naming it.
     */
    public void requireGoverned(String clusterArn) {
        requireComplete("ClusterArn", "whether this deployment governs cluster " + clusterArn);
        SortedSet<ClusterArn> governed = governed();
        if (!governed.contains(ClusterArn.of(clusterArn))) {
            throw AwsApiException.notFound("ClusterArn: cluster " + clusterArn + " not found: this deployment does not govern it "
                    + "(it governs " + (governed.isEmpty() ? "none yet" : governed.toString())
                    + "; topology-service declares the governed clusters)");
        }
    }

    /**
     * Refuses, with a retriable {@code ServiceUnavailable}, an answer that would read this view before it holds every
     * record the topology topic had when the service started ({@link TopologyCatchUp}): a part of the nodes would
     * refuse a quota that fits, or let one pass that does not (a later record may take a node away), and a cluster
     * declared later in the topic would be unknown. Call it only where the answer reads the view, so that nothing
     * else waits.
     *
     * @param field what the answer needed, as the request names it
     * @param what  what could not be told, for the message
     */
    public void requireComplete(String field, String what) {
        String notReady = catchUp.notReady();
        if (notReady != null) {
            throw AwsApiException.unavailable(field + ": cannot tell " + what + ": the cluster's topology has not been read"
                    + " to its end yet (" + notReady + "); retry");
        }
    }

    /** Allocatable of one cluster's ready nodes, summed per instance type. */
    public Map<String, Resources> capacityByInstanceType(ClusterArn cluster) {
        Map<String, Resources> out = new TreeMap<>();
        for (NodeCapacity n : nodes.getOrDefault(cluster, Map.of()).values()) {
            if (n.ready()) {
                out.merge(n.instanceType(), n.allocatable(), Resources::plus);
            }
        }
        return out;
    }

    /** Per instance type, the largest allocatable of one node seen in any cluster: the totals of types no table knows. */
    public Map<String, Resources> learnedInstanceTotals() {
        Map<String, Resources> out = new TreeMap<>();
        for (Map<String, NodeCapacity> of : nodes.values()) {
            for (NodeCapacity n : of.values()) {
                out.merge(n.instanceType(), n.allocatable(), Resources::max);
            }
        }
        return out;
    }

    /** The latest record of one node of a cluster. */
    public java.util.Optional<NodeCapacity> node(ClusterArn cluster, String name) {
        return java.util.Optional.ofNullable(nodes.getOrDefault(cluster, Map.of()).get(name));
    }

    public int nodeCount() {
        return nodes.values().stream().mapToInt(Map::size).sum();
    }
}
