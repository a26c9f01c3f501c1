package dev.taskgov.core.topology;

import java.util.List;

/** Where every pod set of one workload goes, in the workload's pod set order. */
public record Placement(List<PodSetPlacement> podSets) {
    public Placement {
        podSets = List.copyOf(podSets);
    }

    /** Only the pods on one node (pod sets without any there are kept, empty, so indexes still match the workload's). */
    public Placement onNode(String node) {
        return new Placement(podSets.stream().map(p -> p.filterNodes(node::equals)).toList());
    }

    /** The pods on every node but one. */
    public Placement withoutNode(String node) {
        return new Placement(podSets.stream().map(p -> p.filterNodes(n -> !n.equals(node))).toList());
    }
}
