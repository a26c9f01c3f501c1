package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.Workload;
import dev.taskgov.core.topology.PodSetRequest;

import java.util.List;
import java.util.Objects;

/**
 * What evaluation depends on besides the cluster state: the team, the priority, the pod sets and
 * which running workloads it may preempt (never the id or submission time, which only order the
 * queue). Workloads of one shape get the same verdict in the same state.
 */
final class Shape {
    /** {@link #victimsAdmittedUpTo} of a workload that may preempt any running workload the rules allow. */
    static final long ANY_VICTIM = Long.MAX_VALUE;

    private final String team;
    private final int priority;
    private final List<PodSetRequest> podSets;
    /**
     * The highest admission sequence a victim of this shape may have: {@link #ANY_VICTIM}, or, for a workload a
     * preemption evicted in the current run, the last admission before the run began (docs/semantics.md, "Every run
     * ends"); alike workloads evicted in one run share the bound, so they still share verdicts.
     */
    private final long victimsAdmittedUpTo;
    private final int hash; // looked up for every parked workload: hashing the pod sets once
    /**
     * Memo bookkeeping, kept by {@link ParkedVerdicts} alone: the last verdict given under this instance. Alike workloads
     * in a queue share one instance, so this is the newest verdict of their shape, found without a look-up by shape.
     */
    ParkedVerdicts.Verdict lastVerdict;
    /** Memo bookkeeping: the memo's generation in which this instance was last put in its map. */
    long memoGeneration = -1;

    private Shape(String team, int priority, List<PodSetRequest> podSets, long victimsAdmittedUpTo) {
        this.team = team;
        this.priority = priority;
        this.podSets = podSets;
        this.victimsAdmittedUpTo = victimsAdmittedUpTo;
        this.hash = Objects.hash(team, priority, podSets, victimsAdmittedUpTo);
    }

    static Shape of(Workload w) {
        return new Shape(w.team(), w.priority(), w.podSets(), ANY_VICTIM);
    }

    /** The same shape, its victims limited to workloads admitted up to {@code admissionSeq}. */
    Shape limitedTo(long admissionSeq) {
        return new Shape(team, priority, podSets, admissionSeq);
    }

    long victimsAdmittedUpTo() {
        return victimsAdmittedUpTo;
    }

    @Override
    public boolean equals(Object o) {
        if (this == o) return true; // the verdict memo shares instances between alike entries (ParkedVerdicts)
        return o instanceof Shape other && hash == other.hash && priority == other.priority
                && victimsAdmittedUpTo == other.victimsAdmittedUpTo && team.equals(other.team) && podSets.equals(other.podSets);
    }

    @Override
    public int hashCode() {
        return hash;
    }
}
