package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.topology.PodSetRequest;

import java.util.List;
import java.util.Objects;

/**
 * What evaluation depends on besides the cluster state: the team, the priority and the pod sets
 * (never the id or submission time, which only order the queue). Workloads of one shape get the
 * same verdict in the same state.
 */
final class Shape {
    private final String team;
    private final int priority;
    private final List<PodSetRequest> podSets;
    private final int hash; // looked up for every parked workload: hashing the pod sets once

    private Shape(String team, int priority, List<PodSetRequest> podSets) {
        this.team = team;
        this.priority = priority;
        this.podSets = podSets;
        this.hash = Objects.hash(team, priority, podSets);
    }

    static Shape of(Workload w) {
        return new Shape(w.team(), w.priority(), w.podSets());
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true; // the verdict memo shares instances between alike entries (ParkedVerdicts)
        return o instanceof Shape other && hash == other.hash && priority == other.priority
                && team.equals(other.team) && podSets.equals(other.podSets);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
