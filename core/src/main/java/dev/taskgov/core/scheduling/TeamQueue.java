package dev.taskgov.core.scheduling;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * A team's pending workloads in queue order (higher priority first, then earlier submission, then
 * id). Each is either active (still to be evaluated) or parked as inadmissible until something is
 * released. What the team runs is kept by {@link ClusterCache}.
 *
 * <p>The workloads stay in one sorted set whatever they are: parking one marks it with the
 * queue's current epoch, and requeueing every parked workload starts a new epoch. Both are O(1),
 * which matters because a cycle re-walks whole queues (after every admission with evictions):
 * moving each workload between two sets cost two tree operations per workload and walk.
 *
 * <p>With verdicts reused per shape (the scheduler's ordinary mode), the queue also keeps its
 * workloads by {@link Shape}, and a blocked verdict parks the whole shape at once: in the same state
 * every workload of a shape gets the same verdict, so a walk needs to look only at the first active
 * workload of each shape ({@link #activeHeads}), in queue order. The workloads of a parked shape take
 * its verdict (their reason and message) when the cycle ends ({@link #giveVerdict}: a new reason each, new figures
 * alone once at the shape, read through it), or when one of them is chosen ({@link #chosen}), not once in each round
 * of the cycle: a deep queue, re-walked after
 * every release, cost a visit of every pending workload per admission. A workload that enters a shape
 * parked in this epoch stays active until it is looked at itself, as in the walk of every workload.
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
    /** Whole shapes are parked at once (verdicts reused per shape); false: every workload on its own (the reference). */
    private final boolean byShape;
    private final Map<Shape, ShapeQueue> shapes = new HashMap<>();
    /** The first workload of each shape, in queue order: the heads of a walk while nothing is parked ({@link #activeHeads}). */
    private final InQueueOrder shapeFirsts = new InQueueOrder();
    /** The last epoch in which a workload or a shape was parked (or a shape's active part narrowed); -1: none yet. */
    private long parkedEpoch = -1;
    /** Counts additions: a workload's {@link WorkloadEntry#queuedSeq} is this count when it entered. */
    private long added;
    /** Counts looks at workloads: a workload chosen after its shape was parked carries something newer than the verdict. */
    private long visits;

    /** The pending workloads of one shape, and the verdict it was last parked with. */
    static final class ShapeQueue {
        /** The one instance of the shape its workloads share while they are in it (found by identity, not compared). */
        final Shape shape;
        final TreeSet<WorkloadEntry> entries = new TreeSet<>(QUEUE_ORDER);
        /** How many {@link #entries} there are, read without the set (a walk asks it of every shape it parks). */
        int count;
        /** Parked in this epoch: every workload that entered at or before {@link #parkedUpTo}, unless chosen since. */
        long parkedInEpoch = -1;
        long parkedUpTo;
        long parkedAtVisit;
        Evaluation.Blocked verdict;
        /** The verdict is not yet given to the workloads it parked. */
        boolean verdictPending;
        /** The verdict every workload of the shape carries, but those in {@link #unsettled}. */
        Evaluation.Blocked given;
        /** Workloads that may carry something else than {@link #given}: new, requeued, chosen, or parked on their own. */
        List<WorkloadEntry> unsettled = new ArrayList<>();
        /**
         * What the settled workloads (every one but the {@link #unsettled}) read their reason and message through: a new
         * verdict with {@link #given}'s reason changes only its figures, and is set here once instead of in each.
         */
        WorkloadEntry.SharedVerdict shared;
        /** Workloads that entered after the shape was parked in this epoch, in queue order: active until looked at. */
        TreeSet<WorkloadEntry> late;
        /** While not parked as a whole: every workload before this one is parked on its own in {@link #activeFromEpoch}. */
        WorkloadEntry activeFrom;
        long activeFromEpoch = -1;
        /** The number of the last cycle that listed the shape among those it parked whole (the scheduler's bookkeeping). */
        long listedInCycle;
        /** The park before the one a walk is trying ({@link #parkShape}), to go back to ({@link #limitParks}). */
        private long priorEpoch;
        private long priorUpTo;
        private long priorAtVisit;
        private Evaluation.Blocked priorVerdict;
        private boolean priorPending;

        ShapeQueue(Shape shape) {
            this.shape = shape;
        }

        /**
         * Parked whole in {@code epoch} with {@code v}, covering the workloads that entered up to {@code upTo}; the park
         * before is kept for {@link #restorePriorPark}.
         */
        void parkWhole(long epoch, long upTo, long atVisit, Evaluation.Blocked v) {
            priorEpoch = parkedInEpoch;
            priorUpTo = parkedUpTo;
            priorAtVisit = parkedAtVisit;
            priorVerdict = verdict;
            priorPending = verdictPending;
            parkedInEpoch = epoch;
            parkedUpTo = upTo;
            parkedAtVisit = atVisit;
            verdict = v;
            verdictPending = true;
            late = null;
        }

        /** The park before the last {@link #parkWhole} is back (the walk stopped inside the shape). */
        void restorePriorPark() {
            parkedInEpoch = priorEpoch;
            parkedUpTo = priorUpTo;
            parkedAtVisit = priorAtVisit;
            verdict = priorVerdict;
            verdictPending = priorPending;
        }

        /** Notes a workload that may not carry {@link #given}; past a bound, the shortcut is dropped (memory stays bounded). */
        void unsettle(WorkloadEntry e) {
            e.unsettle(); // whatever happens to it next, it no longer follows the shape's verdict
            if (given == null) return;
            if (unsettled.size() > 2 * entries.size() + 16) {
                given = null;
                unsettled.clear();
                return;
            }
            unsettled.add(e);
        }
    }

    TeamQueue(String team, boolean byShape) {
        this.team = team;
        this.byShape = byShape;
    }

    private static ShapeQueue shapeOf(WorkloadEntry e) {
        return e.shapeQueue;
    }

    /** Whether its shape's park in this epoch covers it (it entered before, and was not parked on its own since). */
    private boolean parkedWithShape(WorkloadEntry e) {
        if (!byShape) return false;
        ShapeQueue sq = shapeOf(e);
        return sq != null && sq.parkedInEpoch == epoch && e.queuedSeq <= sq.parkedUpTo;
    }

    private void enterShape(WorkloadEntry e) {
        ShapeQueue sq = shapes.computeIfAbsent(e.shape(), ShapeQueue::new);
        // alike workloads the walk never looks at (it looks at one per shape) would otherwise compare their pod sets
        // with the key's in every look-up of their shape
        e.shareShape(sq.shape);
        e.shapeQueue = sq;
        WorkloadEntry first = sq.entries.isEmpty() ? null : sq.entries.first();
        if (sq.entries.add(e)) sq.count++;
        if (sq.entries.first() == e) {
            if (first != null) shapeFirsts.remove(first);
            shapeFirsts.add(e);
        }
        sq.unsettle(e);
        if (sq.parkedInEpoch == epoch) {
            if (sq.late == null) sq.late = new TreeSet<>(QUEUE_ORDER);
            sq.late.add(e);
        } else if (sq.activeFromEpoch == epoch && sq.activeFrom != null && QUEUE_ORDER.compare(e, sq.activeFrom) < 0) {
            sq.activeFrom = e;
        }
    }

    private void leaveShape(WorkloadEntry e) {
        ShapeQueue sq = shapeOf(e);
        if (sq == null) return;
        if (sq.activeFrom == e) sq.activeFrom = sq.entries.higher(e);
        boolean first = sq.entries.first() == e;
        if (sq.entries.remove(e)) sq.count--;
        if (first) {
            shapeFirsts.remove(e);
            if (!sq.entries.isEmpty()) shapeFirsts.add(sq.entries.first());
        }
        if (sq.late != null) sq.late.remove(e);
        if (sq.entries.isEmpty()) shapes.remove(e.shape());
        e.shapeQueue = null;
        e.unsettle();
    }

    /**
     * The first active workload of each shape, and each that entered a shape parked in this epoch since, in queue order:
     * the ones a walk of every workload would look at before meeting their shape's verdict again, in the order it would
     * (a workload between them is of a shape already met). Parking a shape changes no other shape's workloads, so the
     * order stays right while the walk parks shapes. Taken one at a time ({@link Heads#next}): a walk usually stops
     * long before the last shape, so they are kept as a heap rather than sorted.
     */
    Heads activeHeads() {
        // Nothing parked in this epoch (a walk right after a requeue of every parked workload): each shape's first
        // workload is active and its only head, and they are kept in queue order already.
        if (parkedEpoch != epoch) return new Heads(shapeFirsts.iterator());
        Heads heads = new Heads(shapes.size());
        for (ShapeQueue sq : shapes.values()) {
            Iterable<WorkloadEntry> active;
            if (sq.parkedInEpoch == epoch) {
                // each workload that entered the parked shape since: the walk of every workload meets each of them
                if (sq.late != null) {
                    for (WorkloadEntry e : sq.late) {
                        if (e.parkedInEpoch != epoch) heads.add(e);
                    }
                }
                continue;
            } else if (sq.activeFromEpoch == epoch) {
                active = sq.activeFrom == null ? List.of() : sq.entries.tailSet(sq.activeFrom, true);
            } else {
                WorkloadEntry first = sq.entries.first(); // most often the one: no iterator needed
                if (first.parkedInEpoch != epoch) {
                    heads.add(first);
                    continue;
                }
                active = sq.entries;
            }
            for (WorkloadEntry e : active) {
                if (e.parkedInEpoch != epoch) {
                    heads.add(e);
                    break;
                }
            }
        }
        heads.heapify();
        return heads;
    }

    /**
     * Workloads in queue order in an array, added and removed by binary search: a walk right after a requeue of every
     * parked workload (after each admission with evictions, for every team) steps through them without following a
     * tree's nodes, which cost a memory wait per step.
     */
    static final class InQueueOrder {
        private WorkloadEntry[] entries = new WorkloadEntry[8];
        private int size;

        void add(WorkloadEntry e) {
            int at = Arrays.binarySearch(entries, 0, size, e, QUEUE_ORDER);
            if (at >= 0) return;
            at = -at - 1;
            if (size == entries.length) entries = Arrays.copyOf(entries, 2 * size);
            System.arraycopy(entries, at, entries, at + 1, size - at);
            entries[at] = e;
            size++;
        }

        void remove(WorkloadEntry e) {
            int at = Arrays.binarySearch(entries, 0, size, e, QUEUE_ORDER);
            if (at < 0) return;
            System.arraycopy(entries, at + 1, entries, at, size - at - 1);
            entries[--size] = null;
        }

        /** In queue order; the set must not change while it is walked. */
        Iterator<WorkloadEntry> iterator() {
            return new Iterator<>() {
                private int next;

                @Override
                public boolean hasNext() {
                    return next < size;
                }

                @Override
                public WorkloadEntry next() {
                    if (next >= size) throw new NoSuchElementException();
                    return entries[next++];
                }
            };
        }
    }

    /** Workloads taken in queue order, smallest first: a binary heap on {@link #QUEUE_ORDER} (a total order). */
    static final class Heads {
        private WorkloadEntry[] heap;
        private int size;
        /** The heads in queue order already, taken as they are (instead of the heap); null when the heap is used. */
        private final Iterator<WorkloadEntry> sorted;

        Heads(int capacity) {
            heap = new WorkloadEntry[Math.max(capacity, 4)];
            sorted = null;
        }

        /** Heads given in queue order; the set must not change while they are taken. */
        Heads(Iterator<WorkloadEntry> sorted) {
            this.sorted = sorted;
        }

        void add(WorkloadEntry e) {
            if (size == heap.length) heap = Arrays.copyOf(heap, 2 * size);
            heap[size++] = e;
        }

        void heapify() {
            for (int i = (size >>> 1) - 1; i >= 0; i--) siftDown(i, heap[i]);
        }

        /** The next workload in queue order, or null when none is left. */
        WorkloadEntry next() {
            if (sorted != null) return sorted.hasNext() ? sorted.next() : null;
            if (size == 0) return null;
            WorkloadEntry top = heap[0];
            WorkloadEntry last = heap[--size];
            heap[size] = null;
            if (size > 0) siftDown(0, last);
            return top;
        }

        private void siftDown(int i, WorkloadEntry e) {
            int half = size >>> 1;
            while (i < half) {
                int child = 2 * i + 1;
                int right = child + 1;
                if (right < size && QUEUE_ORDER.compare(heap[right], heap[child]) < 0) child = right;
                if (QUEUE_ORDER.compare(e, heap[child]) <= 0) break;
                heap[i] = heap[child];
                i = child;
            }
            heap[i] = e;
        }
    }

    /**
     * A walk found this head of its shape ({@link #activeHeads}) blocked: parks its whole shape, its workloads to take
     * {@code verdict} later ({@link #giveVerdict}), and returns the shape; or, when the shape is already parked in this
     * epoch (the workload entered since), parks the workload alone and returns null, the caller giving it the verdict.
     * The walk of every workload would park the shape's workloads only up to the one it chooses: {@link #limitParks}
     * then narrows the park to those.
     */
    ShapeQueue parkShape(WorkloadEntry e, Evaluation.Blocked verdict) {
        ShapeQueue sq = shapeOf(e);
        if (sq.parkedInEpoch == epoch) {
            park(e);
            return null;
        }
        sq.parkWhole(epoch, added, ++visits, verdict);
        parkedEpoch = epoch;
        return sq;
    }

    /**
     * The walk that parked {@code parked} stops at {@code chosen}: a shape with workloads after it is parked only up to
     * it, each workload on its own with the shape's verdict ({@code changed} gets those whose reason or message that
     * changed), the rest staying active, as in the walk of every workload; the shape's earlier park, if any, is back.
     * Returns the shapes still parked whole.
     */
    List<ShapeQueue> limitParks(List<ShapeQueue> parked, WorkloadEntry chosen, Consumer<WorkloadEntry> changed) {
        List<ShapeQueue> whole = new ArrayList<>(parked.size());
        for (ShapeQueue sq : parked) {
            // a shape of one workload was parked by that workload, which the walk met before the chosen one
            if (sq.count == 1 || QUEUE_ORDER.compare(sq.entries.last(), chosen) < 0) {
                whole.add(sq);
                continue;
            }
            Evaluation.Blocked verdict = sq.verdict;
            sq.restorePriorPark();
            for (WorkloadEntry e : List.copyOf(sq.entries.headSet(chosen, false))) {
                if (e.parkedInEpoch == epoch) continue; // parked on its own before, in this epoch
                park(e);
                if (e.parkWith(verdict)) changed.accept(e);
            }
            sq.activeFrom = sq.entries.ceiling(chosen);
            sq.activeFromEpoch = epoch;
            parkedEpoch = epoch;
        }
        return whole;
    }

    /**
     * The workload is chosen (admissible now): it first takes the verdict its shape was parked with earlier in this cycle,
     * if it has not yet, as the walk of every workload would have given it then; {@code changed} gets it if that changed
     * its reason or message.
     */
    void chosen(WorkloadEntry e, Consumer<WorkloadEntry> changed) {
        if (!byShape) return;
        ShapeQueue sq = shapeOf(e);
        if (sq != null && sq.verdictPending && covers(sq, e)) {
            if (e.parkWith(sq.verdict)) changed.accept(e);
        }
        e.visitedAt = ++visits;
        if (sq != null) sq.unsettle(e);
    }

    private static boolean covers(ShapeQueue sq, WorkloadEntry e) {
        return e.queuedSeq <= sq.parkedUpTo && e.visitedAt < sq.parkedAtVisit && e.parkedInEpoch != sq.parkedInEpoch;
    }

    /**
     * The workloads a shape's last park covers take its verdict, as a walk of every workload would have given it to
     * each; {@code changed} gets each whose reason or message that changed and must be reported. When the verdict is the
     * one they all carry already, or differs from it in its figures alone (the same reason: a blocked message carries live
     * figures, which change in nearly every cycle of a deep queue), only those that may not carry it are looked at: the
     * settled ones read the new figures through {@link ShapeQueue#shared} when they are read, and are not reported
     * (docs/architecture.md, the status topic: a change of figures alone is written at most once per refresh, by the service
     * asking for the current message). A new reason is given to every workload, and reported for each.
     */
    static void giveVerdict(ShapeQueue sq, Consumer<WorkloadEntry> changed) {
        if (!sq.verdictPending) return;
        sq.verdictPending = false;
        boolean figuresOnly = sq.given != null && sq.shared != null && sq.verdict.reason() == sq.given.reason();
        if (figuresOnly) {
            sq.shared.newFigures(sq.verdict); // the settled ones carry it from now on
        } else {
            if (sq.shared != null) sq.shared.supersede();
            sq.shared = new WorkloadEntry.SharedVerdict(sq.verdict); // every covered one is given it below
        }
        List<WorkloadEntry> stillUnsettled = new ArrayList<>();
        for (WorkloadEntry e : figuresOnly ? sq.unsettled : sq.entries) {
            if (!e.inQueue || !sq.entries.contains(e)) continue; // left, or now of another shape
            if (!covers(sq, e)) {
                stillUnsettled.add(e);
                continue;
            }
            if (e.parkWith(sq.verdict)) changed.accept(e);
            e.settleIn(sq.shared);
        }
        sq.given = sq.verdict;
        sq.unsettled = stillUnsettled; // only workloads still in the queue: the others were skipped above
    }

    /** A new or requeued workload, to be evaluated. */
    void add(WorkloadEntry e) {
        e.parkedInEpoch = -1;
        e.queuedSeq = ++added;
        e.inQueue = true;
        if (pending.add(e) && byShape) enterShape(e);
        structure++;
        if (activeFrom != null && QUEUE_ORDER.compare(e, activeFrom) < 0) activeFrom = e;
    }

    /** The workload leaves the queue (admitted or finished). */
    void remove(WorkloadEntry e) {
        if (pending.remove(e) && byShape) leaveShape(e);
        e.inQueue = false;
        structure++;
    }

    /** Set aside until the next {@link #requeueParked}. */
    void park(WorkloadEntry e) {
        if (!e.inQueue) {
            e.queuedSeq = ++added;
            pending.add(e);
            if (byShape) enterShape(e);
            e.inQueue = true;
            structure++;
        }
        e.parkedInEpoch = epoch;
        parkedEpoch = epoch;
        e.visitedAt = ++visits;
        if (byShape) {
            ShapeQueue sq = shapeOf(e);
            if (sq.late != null) sq.late.remove(e);
            sq.unsettle(e);
        }
    }

    private boolean isParked(WorkloadEntry e) {
        return e.parkedInEpoch == epoch || parkedWithShape(e);
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
        boolean parked = queued && isParked(e);
        if (queued && byShape) leaveShape(e);
        change.run();
        if (queued) {
            pending.add(e); // e.inQueue is unchanged, and so is whether it is parked
            if (byShape) {
                e.queuedSeq = ++added; // not covered by its new shape's park...
                enterShape(e);
                if (parked) park(e); // ...but parked on its own if it was parked
            }
        }
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
