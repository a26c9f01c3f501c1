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
