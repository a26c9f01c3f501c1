package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Amounts;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * One run of the scheduler (docs/semantics.md, "Every run ends"): it begins with the first cycle after an input
 * when no preemption is in flight, and every later cycle belongs to it until one begins after an input with nothing
 * in flight. In a run a workload that a preemption evicted may preempt only workloads admitted before the run began
 * ({@link #admittedUpTo}); that rule alone makes a run finite. The run also counts its preemption evictions against
 * a bound far above what the rule allows: should it ever be exceeded, the run stops preempting and says so
 * ({@link Decision.PreemptionsStopped}), instead of spinning.
 */
final class SchedulerRun {

    /** How many recent evictions a stopped run names. */
    private static final int NAMED = 12;

    final long number;
    /** The last admission sequence before the run began: a workload admitted up to it was admitted when it began. */
    final long admittedUpTo;
    private final long evictionBound;
    private long evictions;
    /** Workloads whose victims this run limited: their limits are lifted when the next run begins. */
    final List<WorkloadEntry> limited = new ArrayList<>();
    /** The last evictions, "victim by preemptor", for the report of a stopped run. */
    private final ArrayDeque<String> recent = new ArrayDeque<>();
    private Decision.PreemptionsStopped stopped;
    private boolean stopReported;

    SchedulerRun(long number, long admittedUpTo, long evictionBound) {
        this.number = number;
        this.admittedUpTo = admittedUpTo;
        this.evictionBound = evictionBound;
    }

    /**
     * Counts a preemption eviction; false when it is one beyond the bound (the run stops preempting, and
     * {@link #stopped()} says why, naming the last evictions).
     */
    boolean countEviction(String victimId, String preemptorId, String team) {
        evictions++;
        if (recent.size() == NAMED) recent.removeFirst();
        recent.addLast(victimId + " by " + preemptorId);
        if (evictions <= evictionBound || stopped != null) return stopped == null;
        stopped = new Decision.PreemptionsStopped(preemptorId, team, number, evictions, evictionBound, List.copyOf(recent),
                "run " + number + " of the scheduler evicted " + Amounts.count(evictions, "workload", "workloads") + " by preemption, beyond its bound of "
                        + evictionBound + ": a preemption cycle the rules should have made impossible; no more preemptions "
                        + "in this run (the workloads that wait are looked at again in the next run); last evictions: "
                        + String.join(", ", recent));
        return false;
    }

    /** Whether the run stopped preempting. */
    boolean isStopped() {
        return stopped != null;
    }

    /** The report of a stopped run, once; null otherwise. */
    Decision.PreemptionsStopped takeStopReport() {
        if (stopped == null || stopReported) return null;
        stopReported = true;
        return stopped;
    }
}
