package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.DomainTree.Domain;
import dev.taskgov.core.topology.DomainTree.NodeState;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The best-fit topology placement of design.md "Topology": one {@link DomainTree} per instance
 * type, updated in place by reservations and node changes.
 */
final class TopologyIndex implements Topology {

    private final HashMap<String, NodeState> nodes = new HashMap<>();
    private final Map<String, DomainTree> trees = new HashMap<>();
    /** Nodes by rank (name order); {@code null} after a node was added or removed. */
    private NodeState[] byRank;

    static TopologyIndex of(Collection<Node> nodes) {
        TopologyIndex t = new TopologyIndex();
        nodes.forEach(t::upsertNode);
        return t;
    }

    @Override
    public PlacementResult place(List<PodSetRequest> podSets) {
        PodSetValidation.requireValid(podSets);
        List<Runnable> undo = new ArrayList<>();
        try {
            List<PodSetPlacement> placed = new ArrayList<>(podSets.size());
            for (int i = 0; i < podSets.size(); i++) {
                PodSetRequest ps = podSets.get(i);
                PlacementResult one = placeOne(ps);
                if (one instanceof PlacementResult.NoFit noFit) {
                    return noFit;
                }
                PodSetPlacement p = ((PlacementResult.Placed) one).placement().podSets().get(0);
                placed.add(p);
                if (i + 1 < podSets.size()) {
                    // Later pod sets see what this one takes; undone before returning.
                    p.podsPerNode().forEach((node, count) -> undo.add(addUsage(nodes.get(node), ps.perPod().times(count))));
                }
            }
            return new PlacementResult.Placed(new Placement(placed));
        } finally {
            for (int i = undo.size() - 1; i >= 0; i--) undo.get(i).run();
        }
    }

    private PlacementResult placeOne(PodSetRequest ps) {
        TopologyRequest request = ps.topology();
        int requestedLevel = TopologyLevels.indexOf(request.level());
        int n = ps.count();
        DomainTree tree = trees.get(ps.instanceType());
        if (tree == null) {
            return noFit(ps, 0);
        }
        long[] cap = tree.capacities(ps.perPod());
        Domain chosen = null;
        switch (request.mode()) {
            case REQUIRED -> {
                chosen = tree.tightestFitting(requestedLevel, n, cap);
                if (chosen == null) {
                    return noFit(ps, tree.maxCapacity(requestedLevel, cap));
                }
            }
            case PREFERRED -> {
                for (int level = requestedLevel; level >= 0 && chosen == null; level--) {
                    chosen = tree.tightestFitting(level, n, cap);
                }
            }
            case NONE -> {
            }
        }
        PodSetPlacement.Domain domain = null;
        if (chosen != null) {
            domain = new PodSetPlacement.Domain(TopologyLevels.ALL.get(chosen.level), chosen.value);
        } else if (cap[tree.root.id] >= n) {
            chosen = tree.root;
        } else {
            return noFit(ps, cap[tree.root.id]);
        }
        PodCounts podsPerNode = new PodCounts(ranked());
        tree.descend(chosen, n, cap, ps.perPod(), podsPerNode);
        return new PlacementResult.Placed(new Placement(List.of(
                new PodSetPlacement(ps.name(), ps.instanceType(), domain, podsPerNode.sorted()))));
    }

    private NodeState[] ranked() {
        if (byRank == null) {
            byRank = nodes.values().toArray(NodeState[]::new);
            Arrays.sort(byRank, Comparator.comparing(ns -> ns.node.name()));
            for (int i = 0; i < byRank.length; i++) byRank[i].rank = i;
        }
        return byRank;
    }

    private static PlacementResult.NoFit noFit(PodSetRequest ps, long fitting) {
        int k = (int) Math.min(fitting, ps.count() - 1L);
        return new PlacementResult.NoFit(ps.name(), k, "allows to fit only " + k + " out of " + ps.count() + " pods");
    }

    /** Adds to a node's usage; returns the action that restores it exactly. */
    private Runnable addUsage(NodeState ns, Resources amount) {
        Resources before = ns.used;
        setUsage(ns, before.plus(amount));
        return () -> setUsage(ns, before);
    }

    private void setUsage(NodeState ns, Resources used) {
        DomainTree tree = trees.get(ns.node.instanceType());
        tree.adjust(ns, -1);
        ns.used = used;
        tree.adjust(ns, +1);
    }

    /**
     * {@inheritDoc}
     * Pod sets and placement entries are matched by position. Nodes the placement names that are
     * not (or no longer) in the topology are skipped.
     */
    @Override
    public void reserve(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (ns, amount) -> setUsage(ns, ns.used.plus(amount)));
    }

    @Override
    public void release(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (ns, amount) -> setUsage(ns, ns.used.minus(amount)));
    }

    private void forEachNode(List<PodSetRequest> podSets, Placement placement,
                             java.util.function.BiConsumer<NodeState, Resources> action) {
        for (int i = 0; i < placement.podSets().size(); i++) {
            Resources perPod = podSets.get(i).perPod();
            placement.podSets().get(i).podsPerNode().forEach((node, count) -> {
                NodeState ns = nodes.get(node);
                if (ns != null) action.accept(ns, perPod.times(count));
            });
        }
    }

    @Override
    public void upsertNode(Node node) {
        NodeState ns = nodes.get(node.name());
        if (ns == null) {
            ns = new NodeState(node, Resources.ZERO);
            nodes.put(node.name(), ns);
            byRank = null;
            tree(node.instanceType()).add(ns);
        } else if (ns.node.instanceType().equals(node.instanceType())
                && java.util.Arrays.equals(DomainTree.pathOf(ns.node), DomainTree.pathOf(node))) {
            DomainTree tree = trees.get(node.instanceType());
            tree.adjust(ns, -1);
            ns.node = node;
            tree.adjust(ns, +1);
        } else {
            detach(ns);
            ns.node = node;
            tree(node.instanceType()).add(ns);
        }
    }

    @Override
    public void removeNode(String nodeName) {
        NodeState ns = nodes.remove(nodeName);
        if (ns != null) {
            byRank = null;
            detach(ns);
        }
    }

    private void detach(NodeState ns) {
        DomainTree tree = trees.get(ns.node.instanceType());
        tree.remove(ns);
        if (tree.isEmpty()) trees.remove(ns.node.instanceType());
    }

    private DomainTree tree(String instanceType) {
        return trees.computeIfAbsent(instanceType, t -> new DomainTree());
    }

    @Override
    public Topology copy() {
        TopologyIndex t = new TopologyIndex();
        trees.forEach((type, tree) -> t.trees.put(type, tree.copy(t.nodes)));
        if (byRank != null) {
            t.byRank = new NodeState[byRank.length];
            for (int i = 0; i < byRank.length; i++) {
                NodeState c = t.nodes.get(byRank[i].node.name());
                c.rank = i;
                t.byRank[i] = c;
            }
        }
        return t;
    }

    @Override
    public List<Node> nodes() {
        NodeState[] ranked = ranked();
        List<Node> out = new ArrayList<>(ranked.length);
        for (NodeState ns : ranked) out.add(ns.node);
        return Collections.unmodifiableList(out);
    }

    @Override
    public Resources free(String nodeName) {
        NodeState ns = nodes.get(nodeName);
        if (ns == null || !ns.node.ready()) return Resources.ZERO;
        return ns.free();
    }

    @Override
    public TopologyDomain domainOf(String nodeName, String level) {
        int idx = requireLevel(level);
        NodeState ns = nodes.get(nodeName);
        if (ns == null) return null;
        Domain d = ns.host;
        while (d.level > idx) d = d.parent;
        return DomainTree.identity(d);
    }

    @Override
    public Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level) {
        return capacityByDomain(podSet, level, Map.of());
    }

    @Override
    public Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level, Map<String, Resources> extraFree) {
        int idx = requireLevel(level);
        DomainTree tree = trees.get(podSet.instanceType());
        if (tree == null) return Map.of();
        long[] cap = extraFree.isEmpty() ? tree.capacities(podSet.perPod()) : tree.computeCapacities(podSet.perPod(), extraFree);
        Map<TopologyDomain, Long> out = new LinkedHashMap<>();
        for (Domain d : tree.level(idx)) out.put(DomainTree.identity(d), cap[d.id]);
        return Collections.unmodifiableMap(out);
    }

    private static int requireLevel(String level) {
        int idx = TopologyLevels.indexOf(level);
        if (idx < 0) {
            throw new IllegalArgumentException("level must be one of " + TopologyLevels.ALL + ", was " + level);
        }
        return idx;
    }
}
