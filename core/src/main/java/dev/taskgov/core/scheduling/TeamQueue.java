package dev.taskgov.core.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;

/**
 * A team's pending workloads in queue order (higher priority first, then earlier submission, then
 * id). Each is either active (still to be evaluated) or parked as inadmissible until something is
 * released. What the team runs is kept by {@link ClusterCache}.
 *
 * <p>The workloads stay in one sorted set whatever they are: parking one marks it with the
 * queue's current epoch, and requeueing every parked workload starts a new epoch. Both are O(1),
 * which matters because a cycle re-walks whole queues (after every admission with evictions):
 * moving each workload between two sets cost two tree operations per workload and walk.
 */
final class TeamQueue {

    /** Higher priority first, then earlier submission, then id. */
    static final Comparator<WorkloadEntry> QUEUE_ORDER = (a, b) -> {
        int c = Integer.compare(b.workload().priority(), a.workload().priority());
        if (c != 0) return c;
        c = a.workload().submittedAt().compareTo(b.workload().submittedAt());
        return c != 0 ? c : a.id().compareTo(b.id());
    };

    final String team;
    private final TreeSet<WorkloadEntry> pending = new TreeSet<>(QUEUE_ORDER);
    /** A workload is parked while its {@link WorkloadEntry#parkedInEpoch} equals this. */
    private long epoch;
    /**
     * Every pending workload that sorts before this one is parked (null: no such claim). Lets the
     * search for the first active workload skip the parked ones it has already passed.
     */
    private WorkloadEntry activeFrom;
    /**
     * The walk in progress over the queue, which returned {@link #walkAt} last: a walk parks
     * workload after workload without changing the set, so the next search goes on from there
     * instead of looking its place up again. Valid while {@link #structure} is what it was.
     */
    private Iterator<WorkloadEntry> walk;
    private WorkloadEntry walkAt;
    private long walkStructure;
    /** Bumped whenever a workload enters or leaves the set (which invalidates a walk). */
    private long structure;
    /** Delegated mode: the workload that asked for preemptions and waits for them; looked at first. */
    WorkloadEntry waitingPreemptor;

    TeamQueue(String team) {
        this.team = team;
    }

    /** A new or requeued workload, to be evaluated. */
    void add(WorkloadEntry e) {
        e.parkedInEpoch = -1;
        e.inQueue = true;
        pending.add(e);
        structure++;
        if (activeFrom != null && QUEUE_ORDER.compare(e, activeFrom) < 0) activeFrom = e;
    }

    /** The workload leaves the queue (admitted or finished). */
    void remove(WorkloadEntry e) {
        pending.remove(e);
        e.inQueue = false;
        structure++;
    }

    /** Set aside until the next {@link #requeueParked}. */
    void park(WorkloadEntry e) {
        if (!e.inQueue) {
            pending.add(e);
            e.inQueue = true;
            structure++;
        }
        e.parkedInEpoch = epoch;
    }

    private boolean isParked(WorkloadEntry e) {
        return e.parkedInEpoch == epoch;
    }

    /** The first workload still to be evaluated, or null. */
    WorkloadEntry firstActive() {
        Iterator<WorkloadEntry> it;
        if (walk != null && walkStructure == structure && walkAt == activeFrom) {
            if (!isParked(walkAt)) return walkAt;
            it = walk; // what the search from activeFrom would step through next
        } else {
            it = (activeFrom == null ? pending : pending.tailSet(activeFrom, true)).iterator();
        }
        while (it.hasNext()) {
            WorkloadEntry e = it.next();
            if (!isParked(e)) {
                activeFrom = e;
                walk = it;
                walkAt = e;
                walkStructure = structure;
                return e;
            }
        }
        activeFrom = null;
        walk = null;
        return null;
    }

    boolean isActive(WorkloadEntry e) {
        return e.inQueue && !isParked(e);
    }

    /**
     * Changes the entry (e.g. its priority) while it is out of the queue: the set is sorted by
     * priority, so it is taken out before and put back after, as active or parked as it was.
     */
    void reorder(WorkloadEntry e, Runnable change) {
        boolean queued = pending.remove(e);
        change.run();
        if (queued) pending.add(e); // e.inQueue and its epoch are unchanged
        structure++;
        activeFrom = null; // the order changed around it
    }

    /** Every parked workload back to the active queue. */
    void requeueParked() {
        epoch++;
        activeFrom = null;
    }

    /** Every pending workload in queue order (position 0 is the head). */
    List<WorkloadEntry> inOrder() {
        return new ArrayList<>(pending);
    }
}
