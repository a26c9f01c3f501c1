package dev.taskgov.core.topology;

import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where one pod set's pods go.
 *
 * @param name         pod set name
 * @param instanceType instance type of its nodes
 * @param domain       the single topology domain holding all its pods when it asked for one and
 *                     got it; {@code null} otherwise
 * @param podsPerNode  pods per node name (only nodes with at least one pod), sorted by name
 */
public record PodSetPlacement(String name, String instanceType, Domain domain, SortedMap<String, Integer> podsPerNode) {

    public PodSetPlacement {
        podsPerNode = java.util.Collections.unmodifiableSortedMap(new TreeMap<>(podsPerNode));
    }

    /** A topology domain: a level and the value of that level's label. */
    public record Domain(String level, String value) {
    }

    /** The same pod set with only the nodes whose names pass the filter. */
    public PodSetPlacement filterNodes(java.util.function.Predicate<String> keep) {
        SortedMap<String, Integer> kept = new TreeMap<>();
        podsPerNode.forEach((n, c) -> {
            if (keep.test(n)) kept.put(n, c);
        });
        return new PodSetPlacement(name, instanceType, domain, kept);
    }

    /** The same pod set (name, instance type, domain) with another placement's pods added, node by node. */
    public PodSetPlacement plus(PodSetPlacement more) {
        SortedMap<String, Integer> sum = new TreeMap<>(podsPerNode);
        more.podsPerNode().forEach((n, c) -> sum.merge(n, c, Integer::sum));
        return new PodSetPlacement(name, instanceType, domain, sum);
    }

    public int podCount() {
        return podsPerNode.values().stream().mapToInt(Integer::intValue).sum();
    }
}
