package dev.taskgov.core.topology;

import java.util.List;

/** Where every pod set of one workload goes, in the workload's pod set order. */
public record Placement(List<PodSetPlacement> podSets) {
    public Placement {
        podSets = List.copyOf(podSets);
    }
}
