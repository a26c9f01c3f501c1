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

    public int podCount() {
        return podsPerNode.values().stream().mapToInt(Integer::intValue).sum();
    }
}
