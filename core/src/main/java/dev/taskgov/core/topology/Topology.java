package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * The cluster's nodes arranged as a tree of topology domains, with what admitted workloads hold
 * on each node. Mutable and not thread-safe: its owner (the scheduler, and the planner's what-ifs,
 * which undo themselves) updates it incrementally as workloads are admitted, finish or are evicted.
 *
 * <h2>Placement rules (docs/semantics.md, "Topology placement")</h2>
 * A domain's capacity for a pod set is how many of its pods fit on the domain's ready nodes of the
 * pod set's instance type (per node: the floor of free / per-pod over all three resources).
 * <ul>
 *   <li>{@code required L}: the best-fit domain of level L that holds every pod, else
 *       {@link PlacementResult.NoFit} "allows to fit only k out of N pods" (k = the largest
 *       capacity of one domain of L).</li>
 *   <li>{@code preferred L}: the best-fit domain of L, else of L-1, ... up to layer-1; else spread
 *       from the whole cluster over as few layer-1 domains as possible.</li>
 *   <li>no request: the same descent from the whole cluster.</li>
 * </ul>
 * Best fit = the least capacity that still holds the pods; ties go to the domain inside the
 * tightest parent (then grandparent...), then to the smallest full path. Inside a chosen domain,
 * level by level: the tightest child that holds all remaining pods, or else children from the
 * largest capacity down, the last one by best fit; each chosen child is descended with its own
 * count. {@link PodSetPlacement#domain()} is the one domain of the requested (or climbed-to)
 * level, or {@code null} when the pods were spread from the whole cluster.
 *
 * <h2>Node selector</h2>
 * A pod set's {@link PodSetRequest#nodeSelector()} is a hard filter applied before all of the
 * above: only nodes that {@link Node#matches(Map) match} it hold any of its pods, and a NoFit
 * message then ends with "on the nodes matching nodeSelector {label=value}". A selector on
 * topology level labels only (e.g. a rack's layer-3 value, or a hostname) restricts the search to
 * those domains' subtrees using the cached capacities (fast path); any other label makes the
 * capacities be recomputed node by node for that pod set (slow path, linear in its instance
 * type's nodes).
 *
 * <h2>Preemption planning with topology</h2>
 * A planner may release and re-reserve candidate victims on the topology itself for a what-if
 * (and must put them back), and can bound its search with {@link #domainOf(String, String)} and
 * {@link #capacityByDomain(PodSetRequest, String, Map)} (capacity per domain as if some victims'
 * resources were free). Which victims it takes is the planner's rule, not the topology's: see
 * {@code PreemptionPlanner}.
 */
public interface Topology {

    /** A topology of these nodes with nothing reserved. */
    static Topology of(Collection<Node> nodes) {
        return TopologyIndex.of(nodes);
    }

    /**
     * Where the pod sets of one workload would go now, placed in order on what the earlier ones
     * leave. Pure: reserves nothing.
     *
     * @throws IllegalArgumentException when the pod sets break a rule of {@link PodSetValidation}
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

    /**
     * An independent copy, for a caller that must leave this topology untouched (planning's
     * what-ifs do not copy: they change the topology in place and undo, see {@code ClusterView}).
     */
    Topology copy();

    /** The nodes, in name order. */
    List<Node> nodes();

    /** A node's free resources (allocatable minus reserved); zero for an unknown or not-ready node. */
    Resources free(String nodeName);

    /**
     * The domain of a level that holds a node (its full path from layer-1 down), or {@code null}
     * for an unknown node.
     *
     * @throws IllegalArgumentException when {@code level} is not one of {@link TopologyLevels#ALL}
     */
    TopologyDomain domainOf(String nodeName, String level);

    /**
     * How many pods of this pod set each domain of a level can hold now (its count and topology
     * request are ignored; its node selector is honoured), in full-path order. Only domains with nodes of the pod set's instance
     * type are listed.
     *
     * @throws IllegalArgumentException when {@code level} is not one of {@link TopologyLevels#ALL}
     */
    Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level);

    /**
     * Like {@link #capacityByDomain(PodSetRequest, String)}, as if the named nodes had these extra
     * free resources (e.g. what evicting some victims would give back). Nothing is changed.
     */
    Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level, Map<String, Resources> extraFree);
}
