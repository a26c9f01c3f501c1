package dev.taskgov.core.model;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.PodSetRequest;

import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A validated workload, ready to queue.
 *
 * @param id            workload id (unique; a second submission with the same id is the same workload)
 * @param team          owning team (the namespace without {@code hyperpod-ns-})
 * @param priorityClass the priority class name as resolved (without {@code -priority}), or {@code null} for none
 * @param priority      the class weight; higher runs first
 * @param submittedAt   submission time (queue order among equal priorities)
 * @param podSets       the pod sets, in order
 */
public record Workload(String id, String team, String priorityClass, int priority, Instant submittedAt,
                       List<PodSetRequest> podSets) {

    public Workload {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(submittedAt, "submittedAt");
        podSets = List.copyOf(podSets);
    }

    /** What the workload requests in total, per instance type (sorted by name). */
    public Map<String, Resources> requestsByInstanceType() {
        Map<String, Resources> out = new TreeMap<>();
        for (PodSetRequest ps : podSets) {
            out.merge(ps.instanceType(), ps.total(), Resources::plus);
        }
        return Collections.unmodifiableMap(out);
    }
}
