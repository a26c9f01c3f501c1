package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.topology.Node;

import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * One cluster's recorded window: its state at {@code from} and what was recorded from then until {@code to}, in time
 * order (records of the same instant keep their order).
 *
 * @param cluster the cluster's ARN (reported back only)
 * @param start   nodes, quotas and scheduler config in force at {@code from}
 * @param events  what happened in the window, each at or before {@code to}: at or after {@code from}, but for the
 *                admissions of workloads already running when the window opened
 */
public record History(String cluster, Instant from, Instant to, Start start, List<Event> events) {

    public History {
        if (to.isBefore(from)) throw new IllegalArgumentException("to " + to + " is before from " + from);
        events = events.stream().sorted(Comparator.comparing(Event::at)).toList();
    }

    /**
     * The cluster as the window knows it: its start, with what the window's records add that the start lacks (the nodes
     * first seen in it, each instance type a node record in it brings, as large as the largest allocatable of its nodes,
     * as the replay learns it, and the quotas of teams that had none at the start). A proposal is read and checked
     * against it: a window that opens before the cluster's first node or quota knows none of them at its start.
     */
    public Start known() {
        Map<String, InstanceType> types = new java.util.TreeMap<>(start.instanceTypes());
        Map<String, dev.taskgov.core.resources.Resources> learned = new java.util.TreeMap<>();
        Map<String, Node> nodes = new java.util.LinkedHashMap<>();
        start.nodes().forEach(n -> nodes.put(n.name(), n));
        Map<String, TeamQuota> quotas = new java.util.LinkedHashMap<>();
        start.quotas().forEach(q -> quotas.put(q.team(), q));
        java.util.Set<String> teamsAtStart = java.util.Set.copyOf(quotas.keySet());
        for (Event e : events) {
            if (e instanceof NodeChanged n) {
                nodes.putIfAbsent(n.node().name(), n.node());
                if (!types.containsKey(n.node().instanceType())) {
                    learned.merge(n.node().instanceType(), n.node().allocatable(), dev.taskgov.core.resources.Resources::max);
                }
            } else if (e instanceof QuotaChanged q && !teamsAtStart.contains(q.quota().team())) {
                quotas.put(q.quota().team(), q.quota());
            } else if (e instanceof QuotaDeleted q && !teamsAtStart.contains(q.team())) {
                quotas.remove(q.team());
            }
        }
        learned.forEach((name, capacity) -> types.put(name, new InstanceType(name, capacity)));
        return new Start(types, List.copyOf(nodes.values()), start.config(), List.copyOf(quotas.values()));
    }

    /** The cluster when the window opens. */
    public record Start(Map<String, InstanceType> instanceTypes, List<Node> nodes, SchedulerConfig config, List<TeamQuota> quotas) {
    }

    /** One recorded fact, at the time the platform recorded it. */
    public sealed interface Event {
        Instant at();
    }

    /** A workload entered the queue ({@code submission.submittedAt()} is its place in the queue). */
    public record Submitted(Instant at, WorkloadSubmitted submission) implements Event {
    }

    /**
     * The platform admitted the workload (a new placement after a node failure is not an admission). Replays do not
     * replay it: with its finish it tells how long the workload runs once admitted.
     */
    public record Admitted(Instant at, String workloadId) implements Event {
    }

    /** The workload ended (succeeded, failed, cancelled). */
    public record Finished(Instant at, String workloadId, WorkloadFinished.Outcome outcome) implements Event {
    }

    /** A node was added or changed (e.g. not ready: it failed). */
    public record NodeChanged(Instant at, Node node) implements Event {
    }

    /** A node left the cluster. */
    public record NodeRemoved(Instant at, String nodeName) implements Event {
    }

    /** A team's compute quota was created or replaced. */
    public record QuotaChanged(Instant at, TeamQuota quota) implements Event {
    }

    /** A team's compute quota was deleted. */
    public record QuotaDeleted(Instant at, String team) implements Event {
    }

    /** The cluster scheduler config was replaced. */
    public record ConfigChanged(Instant at, SchedulerConfig config) implements Event {
    }
}
