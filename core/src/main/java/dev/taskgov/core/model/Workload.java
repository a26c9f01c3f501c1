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
 * @param submittedAt   its place in the queue among equal priorities: the submission time, or the time it
 *                      failed when it is queued again to retry (Kueue's requeuing timestamp {@code Eviction})
 * @param podSets       the pod sets, in order
 * @param maxRetries    how many times it is queued again after it fails while admitted (the submission's
 *                      {@code taskgov.dev/max-retry}); 0: a failure is final
 */
public record Workload(String id, String team, String priorityClass, int priority, Instant submittedAt,
                       List<PodSetRequest> podSets, int maxRetries) {

    public Workload {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(team, "team");
        Objects.requireNonNull(submittedAt, "submittedAt");
        podSets = List.copyOf(podSets);
        if (maxRetries < 0) throw new IllegalArgumentException("maxRetries must not be negative, was " + maxRetries);
    }

    /** A workload whose failure is final (no retries). */
    public Workload(String id, String team, String priorityClass, int priority, Instant submittedAt, List<PodSetRequest> podSets) {
        this(id, team, priorityClass, priority, submittedAt, podSets, 0);
    }

    /** A copy with another priority weight (its class now weighs {@code newPriority}). */
    public Workload withPriority(int newPriority) {
        return new Workload(id, team, priorityClass, newPriority, submittedAt, podSets, maxRetries);
    }

    /** A copy at another place in the queue. */
    public Workload withSubmittedAt(Instant at) {
        return new Workload(id, team, priorityClass, priority, at, podSets, maxRetries);
    }

    /** What the workload requests in total, per instance type (sorted by name). */
    public Map<String, Resources> requestsByInstanceType() {
        if (podSets.size() == 1) {
            // the common case: a map of one that a quota check walks without a sorted map's iterator, and whose entries
            // and keys are kept once made (a map of Map.of makes them anew each time it is walked, and a deep queue's
            // waiting workloads are checked again after nearly every admission)
            PodSetRequest only = podSets.get(0);
            return Collections.singletonMap(only.instanceType(), only.total());
        }
        Map<String, Resources> out = new TreeMap<>();
        for (PodSetRequest ps : podSets) {
            out.merge(ps.instanceType(), ps.total(), Resources::plus);
        }
        return Collections.unmodifiableMap(out);
    }
}
