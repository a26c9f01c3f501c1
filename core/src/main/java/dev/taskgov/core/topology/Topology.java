package dev.taskgov.core.topology;

import java.util.Collection;
import java.util.List;

/**
 * The cluster's nodes arranged as a tree of topology domains, with what admitted workloads hold
 * on each node. Mutable and not thread-safe: its owner (the scheduler, or one planning attempt on
 * a {@link #copy()}) updates it incrementally as workloads are admitted, finish or are evicted.
 */
public interface Topology {

    /** A topology of these nodes with nothing reserved. */
    static Topology of(Collection<Node> nodes) {
        return TopologyIndex.of(nodes);
    }

    /**
     * Where the pod sets of one workload would go now, placed in order on what the earlier ones
     * leave. Pure: reserves nothing.
     */
    PlacementResult place(List<PodSetRequest> podSets);

    /** Marks a placement's pods as holding their nodes' resources. */
    void reserve(List<PodSetRequest> podSets, Placement placement);

    /** Gives back what {@link #reserve} took. */
    void release(List<PodSetRequest> podSets, Placement placement);

    /** Adds a node or replaces it (labels, allocatable, readiness); reservations on it are kept. */
    void upsertNode(Node node);

    /** Removes a node and whatever was reserved on it. */
    void removeNode(String nodeName);

    /** An independent copy, for what-if planning. */
    Topology copy();

    /** The nodes, in name order. */
    List<Node> nodes();
}
