package dev.taskgov.core.scheduling;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A team's pending workloads in queue order (higher priority first, then earlier submission, then
 * id), split into those still to be evaluated and those parked as inadmissible until something
 * is released. What the team runs is kept by {@link ClusterCache}.
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
    /** Waiting to be evaluated, in queue order. */
    private TreeSet<WorkloadEntry> active = new TreeSet<>(QUEUE_ORDER);
    /** Evaluated and found inadmissible; in queue order too, so that requeueing them is a merge. */
    private TreeSet<WorkloadEntry> parked = new TreeSet<>(QUEUE_ORDER);
    /** Delegated mode: the workload that asked for preemptions and waits for them; looked at first. */
    WorkloadEntry waitingPreemptor;

    TeamQueue(String team) {
        this.team = team;
    }

    /** A new or requeued workload, to be evaluated. */
    void add(WorkloadEntry e) {
        active.add(e);
    }

    /** The workload leaves the queue (admitted or finished). */
    void remove(WorkloadEntry e) {
        active.remove(e);
        parked.remove(e);
    }

    /** Set aside until the next {@link #requeueParked}. */
    void park(WorkloadEntry e) {
        active.remove(e);
        parked.add(e);
    }

    /** The first workload still to be evaluated, or null. */
    WorkloadEntry firstActive() {
        return active.isEmpty() ? null : active.first();
    }

    boolean isActive(WorkloadEntry e) {
        return active.contains(e);
    }

    /**
     * Changes the entry (e.g. its priority) while it is out of the queue: both sets are sorted by
     * priority, so it is taken out before and put back after, where it was.
     */
    void reorder(WorkloadEntry e, Runnable change) {
        boolean wasActive = active.remove(e);
        boolean wasParked = parked.remove(e);
        change.run();
        if (wasActive) active.add(e);
        if (wasParked) parked.add(e);
    }

    /** Every parked workload back to the active queue (usually empty by then: the sets are swapped). */
    void requeueParked() {
        if (parked.isEmpty()) return;
        if (active.isEmpty()) {
            TreeSet<WorkloadEntry> empty = active;
            active = parked;
            parked = empty;
        } else {
            active.addAll(parked);
            parked.clear();
        }
    }

    /** Every pending workload in queue order (position 0 is the head). */
    List<WorkloadEntry> inOrder() {
        TreeSet<WorkloadEntry> all = new TreeSet<>(QUEUE_ORDER);
        all.addAll(active);
        all.addAll(parked);
        return new ArrayList<>(all);
    }
}
