package dev.taskgov.topology.capacity;

import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The topology tree (layer-1 → layer-2 → layer-3 → nodes) with capacity and free capacity per
 * domain. Capacity counts ready nodes only (a node that is not ready holds nothing); free is
 * allocatable minus what admitted workloads hold, never below zero. Pure.
 */
public record TopologyTree(ResourceAmounts capacity, ResourceAmounts free, int readyNodes, int notReadyNodes,
                           List<Domain> domains) {

    /** A domain at one level; {@code children} below layer-3 are empty and {@code nodes} are listed instead. */
    public record Domain(String level, String value, ResourceAmounts capacity, ResourceAmounts free, int readyNodes,
                         int notReadyNodes, List<Domain> children, List<NodeView> nodes) {
    }

    public record NodeView(String name, String instanceId, String instanceType, boolean ready,
                           ResourceAmounts allocatable, ResourceAmounts held, ResourceAmounts free) {
    }

    /** One domain's totals in storage units, for metrics. */
    public record DomainTotals(String level, String value, Resources capacity, Resources free) {
    }

    private static final List<String> LAYERS = TopologyLevels.ALL.subList(0, 3);

    public static TopologyTree build(Collection<Node> nodes, Map<String, Resources> heldPerNode) {
        List<Node> sorted = nodes.stream().sorted(Comparator.comparing(Node::name)).toList();
        Totals all = totals(sorted, heldPerNode);
        return new TopologyTree(ResourceAmounts.full(all.capacity), ResourceAmounts.full(all.free), all.ready, all.notReady,
                domains(sorted, 0, heldPerNode));
    }

    /** Every domain at every layer with its totals, broadest first. */
    public static List<DomainTotals> domainTotals(Collection<Node> nodes, Map<String, Resources> heldPerNode) {
        List<DomainTotals> out = new ArrayList<>();
        for (int depth = 0; depth < LAYERS.size(); depth++) {
            String level = LAYERS.get(depth);
            Map<String, List<Node>> groups = new TreeMap<>();
            for (Node n : nodes) groups.computeIfAbsent(n.levelValue(level), k -> new ArrayList<>()).add(n);
            groups.forEach((value, members) -> {
                Totals t = totals(members, heldPerNode);
                out.add(new DomainTotals(level, value, t.capacity, t.free));
            });
        }
        return out;
    }

    private static List<Domain> domains(List<Node> nodes, int depth, Map<String, Resources> held) {
        String level = LAYERS.get(depth);
        Map<String, List<Node>> groups = new TreeMap<>();
        for (Node n : nodes) groups.computeIfAbsent(n.levelValue(level), k -> new ArrayList<>()).add(n);
        List<Domain> out = new ArrayList<>();
        groups.forEach((value, members) -> {
            Totals t = totals(members, held);
            boolean leaf = depth == LAYERS.size() - 1;
            out.add(new Domain(level, value, ResourceAmounts.full(t.capacity), ResourceAmounts.full(t.free), t.ready, t.notReady,
                    leaf ? List.of() : domains(members, depth + 1, held),
                    leaf ? members.stream().map(n -> nodeView(n, held)).toList() : List.of()));
        });
        return out;
    }

    private static NodeView nodeView(Node n, Map<String, Resources> held) {
        Resources h = held.getOrDefault(n.name(), Resources.ZERO);
        return new NodeView(n.name(), n.instanceId(), n.instanceType(), n.ready(), ResourceAmounts.full(n.allocatable()),
                ResourceAmounts.full(h), ResourceAmounts.full(free(n, held)));
    }

    private static Resources free(Node n, Map<String, Resources> held) {
        return n.ready() ? n.allocatable().minus(held.getOrDefault(n.name(), Resources.ZERO)) : Resources.ZERO;
    }

    private record Totals(Resources capacity, Resources free, int ready, int notReady) {
    }

    private static Totals totals(Collection<Node> nodes, Map<String, Resources> held) {
        Resources capacity = Resources.ZERO;
        Resources free = Resources.ZERO;
        int ready = 0;
        for (Node n : nodes) {
            if (n.ready()) {
                ready++;
                capacity = capacity.plus(n.allocatable());
                free = free.plus(free(n, held));
            }
        }
        return new Totals(capacity, free, ready, nodes.size() - ready);
    }
}
