package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Interim first-fit placement (nodes in name order; a required level picks the first domain that
 * holds all pods). The best-fit topology tree of issue 4 replaces it behind {@link Topology}.
 */
final class TopologyIndex implements Topology {

    private final TreeMap<String, Node> nodes = new TreeMap<>();
    private final Map<String, Resources> used = new TreeMap<>();

    static TopologyIndex of(Collection<Node> nodes) {
        TopologyIndex t = new TopologyIndex();
        nodes.forEach(t::upsertNode);
        return t;
    }

    @Override
    public PlacementResult place(List<PodSetRequest> podSets) {
        Map<String, Resources> free = new LinkedHashMap<>();
        for (Node n : nodes.values()) {
            free.put(n.name(), n.ready() ? n.allocatable().minus(used.getOrDefault(n.name(), Resources.ZERO)) : Resources.ZERO);
        }
        List<PodSetPlacement> out = new ArrayList<>();
        for (PodSetRequest ps : podSets) {
            List<List<Node>> groups = new ArrayList<>();
            if (ps.topology().mode() == TopologyRequest.Mode.REQUIRED) {
                Map<String, List<Node>> byDomain = new TreeMap<>();
                for (Node n : nodes.values()) {
                    byDomain.computeIfAbsent(n.levelValue(ps.topology().level()), k -> new ArrayList<>()).add(n);
                }
                groups.addAll(byDomain.values());
            } else {
                groups.add(new ArrayList<>(nodes.values()));
            }
            PodSetPlacement placed = null;
            int best = 0;
            for (List<Node> group : groups) {
                TreeMap<String, Integer> counts = new TreeMap<>();
                int left = ps.count();
                for (Node n : group) {
                    if (left == 0) break;
                    if (!n.instanceType().equals(ps.instanceType())) continue;
                    long fit = Math.min(left, free.get(n.name()).countFitting(ps.perPod()));
                    if (fit > 0) {
                        counts.put(n.name(), (int) fit);
                        left -= (int) fit;
                    }
                }
                best = Math.max(best, ps.count() - left);
                if (left == 0) {
                    PodSetPlacement.Domain domain = ps.topology().mode() == TopologyRequest.Mode.REQUIRED
                            ? new PodSetPlacement.Domain(ps.topology().level(), group.get(0).levelValue(ps.topology().level()))
                            : null;
                    placed = new PodSetPlacement(ps.name(), ps.instanceType(), domain, counts);
                    break;
                }
            }
            if (placed == null) {
                return new PlacementResult.NoFit(ps.name(), best,
                        "allows to fit only " + best + " out of " + ps.count() + " pods");
            }
            placed.podsPerNode().forEach((node, count) -> free.merge(node, ps.perPod().times(count), Resources::minus));
            out.add(placed);
        }
        return new PlacementResult.Placed(new Placement(out));
    }

    @Override
    public void reserve(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (node, amount) -> used.merge(node, amount, Resources::plus));
    }

    @Override
    public void release(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (node, amount) -> used.merge(node, amount, Resources::minus));
    }

    private void forEachNode(List<PodSetRequest> podSets, Placement placement,
                             java.util.function.BiConsumer<String, Resources> action) {
        for (int i = 0; i < placement.podSets().size(); i++) {
            Resources perPod = podSets.get(i).perPod();
            placement.podSets().get(i).podsPerNode().forEach((node, count) -> action.accept(node, perPod.times(count)));
        }
    }

    @Override
    public void upsertNode(Node node) {
        nodes.put(node.name(), node);
    }

    @Override
    public void removeNode(String nodeName) {
        nodes.remove(nodeName);
        used.remove(nodeName);
    }

    @Override
    public Topology copy() {
        TopologyIndex t = new TopologyIndex();
        t.nodes.putAll(nodes);
        t.used.putAll(used);
        return t;
    }

    @Override
    public List<Node> nodes() {
        return List.copyOf(nodes.values());
    }
}
