package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.DomainTree.Domain;
import dev.taskgov.core.topology.DomainTree.Slot;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The best-fit topology placement of docs/semantics.md, "Topology placement".
 *
 * <p>Two parts: the {@link Structure} (one {@link DomainTree} per instance type, node slots) and
 * the state (each slot's node record and reserved resources, plus per pod shape the capacity of
 * every domain). Reservations and readiness changes update a node's record and go to a journal; a
 * cached shape's capacities take the journal's changes by delta along their nodes' paths when the
 * shape is asked for again; only adding, removing or relabelling a node touches the structure. {@link #copy()}
 * shares the structure (copy-on-write) and clones the state arrays, so a copy costs
 * about one array copy per node and per cached shape.
 */
final class TopologyIndex implements Topology {

    /** Pod count standing for "unlimited" on one node (a pod that asks for nothing). */
    static final long UNLIMITED_PER_NODE = Integer.MAX_VALUE;
    /**
     * How many capacities (longs) the shapes cached for one instance type may hold: the larger the tree, the fewer
     * shapes, from {@link #MIN_CACHED_SHAPES} to {@link #MAX_CACHED_SHAPES}. A deep queue of distinct shapes asks for
     * hundreds of them between two admissions on the type; each counted anew visits every node with room.
     */
    private static final int CACHED_CAPACITIES = 1 << 20;
    private static final int MIN_CACHED_SHAPES = 32;
    private static final int MAX_CACHED_SHAPES = 1024;
    /**
     * A cached shape behind the changes by more than this is counted again rather than brought up to date: a change
     * replayed costs two capacities and a path, a count one capacity per node with room (a few hundred on a full cluster).
     */
    private static final int REPLAY_LIMIT = 512;
    /** The most changes a journal keeps before it drops what every cached shape has passed (at least twice the limit). */
    private static final int JOURNAL_MAX = 4 * REPLAY_LIMIT;

    /** Node slots and domain trees; shared between copies until one of them changes it. */
    private static final class Structure {
        final HashMap<String, Slot> slots = new HashMap<>();
        final HashMap<String, DomainTree> trees = new HashMap<>();
        /** Slots by state index (null where none): the slots a set of indexes stands for. */
        Slot[] byIndex = new Slot[16];
        final ArrayDeque<Integer> freeIndexes = new ArrayDeque<>();
        int nextIndex;
        /** Slots in name order; {@code null} after a slot was added or removed. */
        Slot[] byRank;
        boolean shared;

        Slot[] ranked() {
            if (byRank == null) {
                byRank = slots.values().toArray(Slot[]::new);
                Arrays.sort(byRank, Comparator.comparing(s -> s.name));
                for (int i = 0; i < byRank.length; i++) byRank[i].rank = i;
            }
            return byRank;
        }

        Structure copy() {
            ranked();
            Structure s = new Structure();
            trees.forEach((type, tree) -> s.trees.put(type, tree.copy(s.slots)));
            s.byIndex = new Slot[byIndex.length];
            for (Slot slot : s.slots.values()) s.byIndex[slot.index] = slot;
            s.freeIndexes.addAll(freeIndexes);
            s.nextIndex = nextIndex;
            s.byRank = new Slot[byRank.length];
            for (int i = 0; i < byRank.length; i++) s.byRank[i] = s.slots.get(byRank[i].name);
            return s;
        }
    }

    /** A shape's capacity per domain id, counted up to change {@code seq} of its cache's journal. */
    private static final class Counted {
        final long[] cap;
        long seq;
        /** For a shape of accelerators alone, once asked for by a shape that also asks for vCPU or memory: its {@link Room}. */
        Room room;

        Counted(long[] cap, long seq) {
            this.cap = cap;
            this.seq = seq;
        }
    }

    /**
     * How much vCPU and memory per pod a shape may ask for beside its accelerators and still fit, on every node, as many
     * pods as a shape of those accelerators alone: the least, over the nodes where that shape fits pods, of their free
     * vCPU and free memory per such pod. A shape within both has the very capacities of the accelerators alone, since no
     * node is short of its vCPU or memory before it is short of accelerators; so the pod shapes of a deep queue that
     * differ only in vCPU or memory (pipelines' jobs ask for the same accelerators and varied memory) share one count
     * rather than each being counted over the nodes. Kept with the count (the minima and how many nodes are at each, so
     * that a changed node moves them without a scan unless it was the last at a minimum).
     */
    private static final class Room {
        final Least cpu = new Least();
        final Least memory = new Least();

        boolean admits(Resources perPod) {
            return perPod.milliVcpu() <= cpu.value && perPod.memoryMiB() <= memory.value;
        }

        /** A node where the accelerators alone fit {@code pods} pods, with that much vCPU and memory free, counts. */
        void enter(long pods, long freeCpu, long freeMemory) {
            if (pods <= 0) return;
            cpu.enter(freeCpu / pods);
            memory.enter(freeMemory / pods);
        }

        /** The node counted by {@link #enter} with these figures changed. */
        void leave(long pods, long freeCpu, long freeMemory) {
            if (pods <= 0) return;
            cpu.leave(freeCpu / pods);
            memory.leave(freeMemory / pods);
        }

        /**
         * A node at a least value changed away from it and was the last there: the true least may be higher, and it
         * is found again before the next use (a least value too low only sends a shape to a count of its own: never
         * wrong).
         */
        boolean stale() {
            return cpu.stale || memory.stale;
        }
    }

    /** The least of a set of values, with how many are at it. */
    private static final class Least {
        long value = Long.MAX_VALUE;
        int at;
        boolean stale;

        void enter(long v) {
            if (v < value) {
                value = v;
                at = 1;
            } else if (v == value) {
                at++;
            }
        }

        void leave(long v) {
            if (v == value && --at == 0) stale = true;
        }
    }

    /**
     * Capacity arrays per pod shape for one instance type, valid for one tree version, and the journal of the changes
     * to its nodes since (each slot's node, usage and what it left free before the change). A change only appends to the
     * journal; a cached shape is brought up to date when it is asked for, by the slots changed since it was: a
     * reservation then costs the same however many shapes are cached, and a shape not asked for again costs nothing.
     */
    private static final class ShapeCache {
        int version;
        /** How many shapes it keeps, the least recently asked for dropped first (set for the tree's size). */
        int maxShapes = MIN_CACHED_SHAPES;
        final LinkedHashMap<Resources, Counted> byShape = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Resources, Counted> eldest) {
                if (size() <= maxShapes) return false;
                spare = eldest.getValue().cap;
                return true;
            }
        };
        /**
         * The capacity array of the last shape dropped, for the next shape counted: a deep queue of distinct shapes counts
         * thousands between two admissions, and an array per count (one long per domain) was most of a drain's garbage.
         * Only a shape dropped from the cache gives its array here; an array a caller was given is never reused while
         * it is asked for, since each is read before the next shape is asked for ({@link #capacitiesFor}).
         */
        long[] spare;
        /** The sequence number of the journal's first change; the journal holds changes base .. base + size - 1. */
        long base;
        int size;
        // The journal in parallel arrays: a change is recorded on every reservation and release, without allocating
        // (one record per change made the 10k DISTINCT drain 5-8% slower).
        int[] slotWas = new int[16];
        boolean[] readyWas = new boolean[16];
        long[] freeWas = new long[3 * 16];
        Node[] nodeWas = new Node[16];
        Resources[] usedWas = new Resources[16];
        /** Per slot index, the replay that saw it last: a slot changed twice since a shape's count is replayed once. */
        int[] seenIn = new int[16];
        int replays;

        long seq() {
            return base + size;
        }

        void record(int index, boolean ready, long[] free, Node node, Resources used) {
            if (size == JOURNAL_MAX) trim();
            if (size == slotWas.length) {
                int n = Math.min(JOURNAL_MAX, 2 * size);
                slotWas = Arrays.copyOf(slotWas, n);
                readyWas = Arrays.copyOf(readyWas, n);
                freeWas = Arrays.copyOf(freeWas, 3 * n);
                nodeWas = Arrays.copyOf(nodeWas, n);
                usedWas = Arrays.copyOf(usedWas, n);
            }
            slotWas[size] = index;
            readyWas[size] = ready;
            System.arraycopy(free, 3 * index, freeWas, 3 * size, 3);
            nodeWas[size] = node;
            usedWas[size] = used;
            size++;
        }

        /** Forgets the shapes too far behind to replay, then the changes every remaining shape has passed. */
        private void trim() {
            long now = seq();
            byShape.values().removeIf(c -> now - c.seq > REPLAY_LIMIT);
            long passed = now;
            for (Counted c : byShape.values()) passed = Math.min(passed, c.seq);
            int drop = (int) (passed - base);
            int keep = size - drop;
            System.arraycopy(slotWas, drop, slotWas, 0, keep);
            System.arraycopy(readyWas, drop, readyWas, 0, keep);
            System.arraycopy(freeWas, 3 * drop, freeWas, 0, 3 * keep);
            System.arraycopy(nodeWas, drop, nodeWas, 0, keep);
            System.arraycopy(usedWas, drop, usedWas, 0, keep);
            Arrays.fill(nodeWas, keep, size, null);
            Arrays.fill(usedWas, keep, size, null);
            base = passed;
            size = keep;
        }

        /** Drops every shape and change (the tree's ids changed); keeps as many shapes as the budget allows for its size. */
        void clear(int newVersion, int domains) {
            maxShapes = (int) Math.max(MIN_CACHED_SHAPES, Math.min(MAX_CACHED_SHAPES, CACHED_CAPACITIES / Math.max(1, domains)));
            byShape.clear();
            spare = null; // of the old tree's size
            Arrays.fill(nodeWas, 0, size, null);
            Arrays.fill(usedWas, 0, size, null);
            base += size;
            size = 0;
            version = newVersion;
        }
    }

    private Structure structure = new Structure();
    private Node[] nodeAt = new Node[16];
    private Resources[] usedAt = new Resources[16];
    /**
     * Free accelerators, milli-vCPU and MiB of each slot (three per index; zero when not ready),
     * kept next to {@link #nodeAt}/{@link #usedAt}: computing a new shape's capacities reads one
     * array instead of two records per node.
     */
    private long[] freeAt = new long[3 * 16];
    private boolean[] readyAt = new boolean[16];
    /**
     * Per instance type, the indexes of its ready nodes with a free accelerator: the only nodes where a pod that asks for
     * accelerators can go. A new shape's capacities are counted over these alone (on a full cluster a few of thousands).
     */
    private Map<String, BitSet> withFreeAccelerators = new HashMap<>();
    private final Map<String, ShapeCache> caches = new HashMap<>();

    static TopologyIndex of(Collection<Node> nodes) {
        TopologyIndex t = new TopologyIndex();
        nodes.forEach(t::upsertNode);
        return t;
    }

    // ---- placement ---------------------------------------------------------------------------

    @Override
    public PlacementResult place(List<PodSetRequest> podSets) {
        PodSetValidation.requireValid(podSets);
        List<Runnable> undo = new ArrayList<>();
        try {
            List<PodSetPlacement> placed = new ArrayList<>(podSets.size());
            for (int i = 0; i < podSets.size(); i++) {
                PodSetRequest ps = podSets.get(i);
                PlacementResult one = placeOne(ps);
                if (one instanceof PlacementResult.NoFit noFit) {
                    return noFit;
                }
                PodSetPlacement p = ((PlacementResult.Placed) one).placement().podSets().get(0);
                placed.add(p);
                if (i + 1 < podSets.size()) {
                    // Later pod sets see what this one takes; undone before returning.
                    p.podsPerNode().forEach((node, count) ->
                            undo.add(addUsage(structure.slots.get(node), ps.perPod().times(count))));
                }
            }
            return new PlacementResult.Placed(new Placement(placed));
        } finally {
            for (int i = undo.size() - 1; i >= 0; i--) undo.get(i).run();
        }
    }

    /** One pod set: Placed with a single pod set placement, or NoFit. */
    private PlacementResult placeOne(PodSetRequest ps) {
        TopologyRequest request = ps.topology();
        int requestedLevel = TopologyLevels.indexOf(request.level());
        int n = ps.count();
        DomainTree tree = structure.trees.get(ps.instanceType());
        if (tree == null) {
            return noFit(ps, 0);
        }
        long[] cap = capacitiesFor(ps, tree, Map.of());
        Domain chosen = null;
        switch (request.mode()) {
            case REQUIRED -> {
                chosen = tree.tightestFitting(requestedLevel, n, cap);
                if (chosen == null) {
                    return noFit(ps, tree.maxCapacity(requestedLevel, cap));
                }
            }
            case PREFERRED -> {
                for (int level = requestedLevel; level >= 0 && chosen == null; level--) {
                    chosen = tree.tightestFitting(level, n, cap);
                }
            }
            case NONE -> {
            }
        }
        PodSetPlacement.Domain domain = null;
        if (chosen != null) {
            domain = new PodSetPlacement.Domain(TopologyLevels.ALL.get(chosen.level), chosen.value);
        } else if (cap[tree.root.id] >= n) {
            chosen = tree.root;
        } else {
            return noFit(ps, cap[tree.root.id]);
        }
        PodCounts podsPerNode = new PodCounts(structure.ranked());
        tree.descend(chosen, n, cap, s -> slotCapacity(s, ps, Resources.ZERO), podsPerNode);
        return new PlacementResult.Placed(new Placement(List.of(
                new PodSetPlacement(ps.name(), ps.instanceType(), domain, podsPerNode.sorted()))));
    }

    private static PlacementResult.NoFit noFit(PodSetRequest ps, long fitting) {
        int k = (int) Math.min(fitting, ps.count() - 1L);
        String where = ps.nodeSelector().isEmpty() ? "" : " on the nodes matching nodeSelector " + ps.nodeSelector();
        return new PlacementResult.NoFit(ps.name(), k, "allows to fit only " + k + " out of " + ps.count() + " pods" + where);
    }

    // ---- capacities --------------------------------------------------------------------------

    /** How many pods of this shape fit on a slot's node, as if it had {@code extraFree} more free. */
    private long capacity(Slot s, Resources perPod, Resources extraFree) {
        int i = s.index;
        return readyAt[i] ? fit(freeAt, 3 * i, nodeAt[i], usedAt[i], perPod, extraFree) : 0;
    }

    /**
     * How many pods of this shape fit on a ready node with {@code free[at..at+2]} free accelerators, milli-vCPU and MiB
     * (its record and usage for partition types), as if it had {@code extraFree} more free.
     */
    private static long fit(long[] free, int at, Node node, Resources used, Resources perPod, Resources extraFree) {
        long n = UNLIMITED_PER_NODE;
        if (perPod.accelerators() > 0) {
            n = Math.min(n, plus(free[at], extraFree.accelerators()) / perPod.accelerators());
        }
        if (perPod.milliVcpu() > 0) {
            n = Math.min(n, plus(free[at + 1], extraFree.milliVcpu()) / perPod.milliVcpu());
        }
        if (perPod.memoryMiB() > 0) {
            n = Math.min(n, plus(free[at + 2], extraFree.memoryMiB()) / perPod.memoryMiB());
        }
        if (!perPod.partitions().isEmpty()) {
            // Partition types are open-ended, so they have no slot in freeAt: taken from the node and its usage.
            Resources allocatable = node.allocatable();
            for (Map.Entry<String, Long> p : perPod.partitions().entrySet()) {
                long partitionFree = Math.max(0, allocatable.partition(p.getKey()) - used.partition(p.getKey()));
                n = Math.min(n, plus(partitionFree, extraFree.partition(p.getKey())) / p.getValue());
            }
        }
        return n;
    }

    /** {@link #capacity}, or 0 on a node the pod set's node selector excludes. */
    private long slotCapacity(Slot s, PodSetRequest ps, Resources extraFree) {
        if (!ps.nodeSelector().isEmpty() && !nodeAt[s.index].matches(ps.nodeSelector())) return 0;
        return capacity(s, ps.perPod(), extraFree);
    }

    /**
     * Capacity per domain id of a tree for a pod set (do not modify the array). Without a node
     * selector and extra free resources: the cached array of its shape. A selector on topology
     * levels only (fast path): the cached array restricted to the matching subtrees. Any other
     * label, or extra free resources (slow path): recomputed node by node.
     */
    private long[] capacitiesFor(PodSetRequest ps, DomainTree tree, Map<String, Resources> extraFree) {
        if (extraFree.isEmpty()) {
            long[] cap = capacities(ps.instanceType(), tree, ps.perPod());
            if (ps.nodeSelector().isEmpty()) return cap;
            String[] wanted = wantedLevelValues(ps.nodeSelector());
            if (wanted != null) return tree.restrict(cap, wanted);
        }
        return tree.computeCapacities(s -> slotCapacity(s, ps, extraFree.getOrDefault(s.name, Resources.ZERO)));
    }

    /** Per level the selected value (or null) when every selector key is a topology level, else null. */
    private static String[] wantedLevelValues(Map<String, String> selector) {
        String[] wanted = new String[TopologyLevels.ALL.size()];
        for (Map.Entry<String, String> e : selector.entrySet()) {
            int level = TopologyLevels.indexOf(e.getKey());
            if (level < 0) return null;
            wanted[level] = e.getValue();
        }
        return wanted;
    }

    /** Saturating, as {@link Resources#plus}: both are never negative. */
    private static long plus(long free, long extra) {
        long sum = free + extra;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /** Records a slot's node and usage, and what that leaves free (same arithmetic as {@code allocatable.minus(used)}). */
    private void store(int index, Node node, Resources used) {
        Node before = nodeAt[index];
        nodeAt[index] = node;
        usedAt[index] = used;
        boolean ready = node != null && node.ready();
        readyAt[index] = ready;
        int f = 3 * index;
        if (ready) {
            Resources a = node.allocatable();
            freeAt[f] = Math.max(0, a.accelerators() - used.accelerators());
            freeAt[f + 1] = Math.max(0, a.milliVcpu() - used.milliVcpu());
            freeAt[f + 2] = Math.max(0, a.memoryMiB() - used.memoryMiB());
        } else {
            freeAt[f] = 0;
            freeAt[f + 1] = 0;
            freeAt[f + 2] = 0;
        }
        if (before != null && (node == null || !before.instanceType().equals(node.instanceType()))) {
            BitSet was = withFreeAccelerators.get(before.instanceType());
            if (was != null) was.clear(index);
        }
        if (node != null) {
            boolean room = ready && freeAt[f] > 0;
            BitSet now = room ? withFreeAccelerators.computeIfAbsent(node.instanceType(), t -> new BitSet())
                    : withFreeAccelerators.get(node.instanceType());
            if (now != null) now.set(index, room);
        }
    }

    /** Capacity per domain id of a tree for a shape, from the cache (do not modify the array). */
    private long[] capacities(String instanceType, DomainTree tree, Resources perPod) {
        ShapeCache cache = caches.computeIfAbsent(instanceType, t -> new ShapeCache());
        int version = tree.version();
        if (cache.version != version) cache.clear(version, tree.domains());
        if (perPod.partitions().isEmpty() && perPod.accelerators() > 0 && (perPod.milliVcpu() > 0 || perPod.memoryMiB() > 0)) {
            Counted alone = counted(cache, instanceType, tree, Resources.accelerators(perPod.accelerators()));
            if (alone.room == null || alone.room.stale()) alone.room = room(instanceType, perPod.accelerators());
            if (alone.room.admits(perPod)) return alone.cap;
        }
        return counted(cache, instanceType, tree, perPod).cap;
    }

    /** The shape's count in the cache, brought up to date, or counted now. */
    private Counted counted(ShapeCache cache, String instanceType, DomainTree tree, Resources perPod) {
        Counted counted = cache.byShape.get(perPod);
        if (counted != null && !upToDate(cache, counted, perPod)) {
            cache.byShape.remove(perPod);
            cache.spare = counted.cap;
            counted = null;
        }
        if (counted == null) {
            long[] cap;
            long[] reuse = cache.spare;
            cache.spare = null;
            if (perPod.partitions().isEmpty() && perPod.accelerators() > 0) {
                // Nodes without a free accelerator hold none of its pods: only the others are counted.
                BitSet room = withFreeAccelerators.get(instanceType);
                cap = tree.computeCapacities(plainCapacity(perPod), room == null ? new BitSet() : room, structure.byIndex, reuse);
            } else {
                cap = tree.computeCapacities(perPod.partitions().isEmpty() ? plainCapacity(perPod) : s -> capacity(s, perPod, Resources.ZERO), reuse);
            }
            counted = new Counted(cap, cache.seq());
            cache.byShape.put(perPod, counted);
        }
        return counted;
    }

    /** The {@link Room} of a shape of {@code accelerators} alone, over the ready nodes of the type with a free accelerator. */
    private Room room(String instanceType, long accelerators) {
        Room room = new Room();
        BitSet withFree = withFreeAccelerators.get(instanceType);
        if (withFree == null) return room;
        for (int i = withFree.nextSetBit(0); i >= 0; i = withFree.nextSetBit(i + 1)) {
            if (readyAt[i]) room.enter(freeAt[3 * i] / accelerators, freeAt[3 * i + 1], freeAt[3 * i + 2]);
        }
        return room;
    }

    /**
     * Brings a cached shape's capacities up to the journal's end: each slot changed since its count moves them by what
     * the slot holds of the shape now less what it held then (its state before its first change since). False when it
     * is too far behind (or behind what the journal still holds): it is then counted again.
     */
    private boolean upToDate(ShapeCache cache, Counted counted, Resources perPod) {
        long end = cache.seq();
        if (counted.seq == end) return true;
        if (counted.seq < cache.base || end - counted.seq > REPLAY_LIMIT) return false;
        if (cache.replays == Integer.MAX_VALUE) {
            Arrays.fill(cache.seenIn, 0);
            cache.replays = 0;
        }
        int replay = ++cache.replays;
        if (cache.seenIn.length < structure.byIndex.length) cache.seenIn = Arrays.copyOf(cache.seenIn, structure.byIndex.length);
        int[] seenIn = cache.seenIn;
        for (int k = (int) (counted.seq - cache.base); k < cache.size; k++) {
            int index = cache.slotWas[k];
            if (seenIn[index] == replay) continue;
            seenIn[index] = replay;
            long then = cache.readyWas[k] ? fit(cache.freeWas, 3 * k, cache.nodeWas[k], cache.usedWas[k], perPod, Resources.ZERO) : 0;
            Slot s = structure.byIndex[index];
            long now = capacity(s, perPod, Resources.ZERO);
            long delta = now - then;
            if (delta != 0) DomainTree.addAlongPath(s, delta, counted.cap);
            if (counted.room != null) {
                counted.room.leave(then, cache.freeWas[3 * k + 1], cache.freeWas[3 * k + 2]);
                counted.room.enter(now, freeAt[3 * index + 1], freeAt[3 * index + 2]);
            }
        }
        counted.seq = end;
        return true;
    }

    /**
     * {@link #capacity} with nothing extra free, for a shape without partition types: the shape's amounts read once
     * rather than once per node (a shape not in the cache is counted over every node of its instance type).
     */
    private DomainTree.SlotCapacity plainCapacity(Resources perPod) {
        long acc = perPod.accelerators();
        long cpu = perPod.milliVcpu();
        long mem = perPod.memoryMiB();
        boolean[] ready = readyAt;
        long[] free = freeAt;
        return s -> {
            int i = s.index;
            if (!ready[i]) return 0;
            int f = 3 * i;
            // a node without room for one pod (most of a full cluster's) answers without a division
            if (free[f] < acc || free[f + 1] < cpu || free[f + 2] < mem) return 0;
            long n = UNLIMITED_PER_NODE;
            if (acc > 0) n = Math.min(n, free[f] / acc);
            if (cpu > 0) n = Math.min(n, free[f + 1] / cpu);
            if (mem > 0) n = Math.min(n, free[f + 2] / mem);
            return n;
        };
    }

    /** The slot's cache when it has shapes that are up to date with the tree, else {@code null}. */
    private ShapeCache liveCache(Slot s) {
        ShapeCache cache = caches.get(s.instanceType);
        DomainTree tree = structure.trees.get(s.instanceType);
        // A cache of another tree version is dropped on its next read; nothing to keep up to date.
        if (cache == null || tree == null || cache.byShape.isEmpty() || !tree.isIndexedAt(cache.version)) return null;
        return cache;
    }

    /**
     * Replaces a slot's node record and usage; while shapes of its instance type are cached, what it was goes to their
     * journal first (they are brought up to date when asked for, {@link #upToDate}).
     */
    private void updateSlot(Slot s, Node node, Resources used) {
        ShapeCache cache = liveCache(s);
        int i = s.index;
        if (cache != null) cache.record(i, readyAt[i], freeAt, nodeAt[i], usedAt[i]);
        store(i, node, used);
    }

    // ---- state changes -----------------------------------------------------------------------

    /** Adds to a node's usage; returns the action that restores it exactly. */
    private Runnable addUsage(Slot s, Resources amount) {
        Resources before = usedAt[s.index];
        setUsage(s, before.plus(amount));
        return () -> setUsage(s, before);
    }

    private void setUsage(Slot s, Resources used) {
        updateSlot(s, nodeAt[s.index], used);
    }

    /**
     * {@inheritDoc}
     * Pod sets and placement entries are matched by position. Nodes the placement names that are
     * not (or no longer) in the topology are skipped.
     */
    @Override
    public void reserve(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (s, amount) -> setUsage(s, usedAt[s.index].plus(amount)));
    }

    @Override
    public void release(List<PodSetRequest> podSets, Placement placement) {
        forEachNode(podSets, placement, (s, amount) -> setUsage(s, usedAt[s.index].minus(amount)));
    }

    private void forEachNode(List<PodSetRequest> podSets, Placement placement, BiConsumer<Slot, Resources> action) {
        for (int i = 0; i < placement.podSets().size(); i++) {
            Resources perPod = podSets.get(i).perPod();
            placement.podSets().get(i).podsPerNode().forEach((node, count) -> {
                Slot s = structure.slots.get(node);
                if (s != null) action.accept(s, perPod.times(count));
            });
        }
    }

    @Override
    public void upsertNode(Node node) {
        Slot s = structure.slots.get(node.name());
        String[] path = DomainTree.pathOf(node);
        if (s != null && s.instanceType.equals(node.instanceType()) && Arrays.equals(s.path, path)) {
            updateSlot(s, node, usedAt[s.index]);
            return;
        }
        Resources used = Resources.ZERO;
        if (s != null) {
            used = usedAt[s.index];
            removeNode(node.name());
        }
        Structure st = ownStructure();
        Integer free = st.freeIndexes.poll();
        int index = free != null ? free : st.nextIndex++;
        if (index >= nodeAt.length) {
            nodeAt = Arrays.copyOf(nodeAt, Math.max(index + 1, nodeAt.length * 2));
            usedAt = Arrays.copyOf(usedAt, nodeAt.length);
            readyAt = Arrays.copyOf(readyAt, nodeAt.length);
            freeAt = Arrays.copyOf(freeAt, 3 * nodeAt.length);
        }
        store(index, node, used);
        Slot added = new Slot(index, node.name(), node.instanceType(), path);
        st.slots.put(node.name(), added);
        if (index >= st.byIndex.length) st.byIndex = Arrays.copyOf(st.byIndex, Math.max(index + 1, st.byIndex.length * 2));
        st.byIndex[index] = added;
        st.byRank = null;
        st.trees.computeIfAbsent(node.instanceType(), t -> new DomainTree()).add(added);
    }

    @Override
    public void removeNode(String nodeName) {
        if (!structure.slots.containsKey(nodeName)) return;
        Structure st = ownStructure();
        Slot s = st.slots.remove(nodeName);
        st.byRank = null;
        DomainTree tree = st.trees.get(s.instanceType);
        tree.remove(s);
        if (tree.isEmpty()) {
            st.trees.remove(s.instanceType);
            caches.remove(s.instanceType);
        }
        store(s.index, null, null);
        st.byIndex[s.index] = null;
        st.freeIndexes.push(s.index);
    }

    /** The structure, cloned first when a copy shares it. */
    private Structure ownStructure() {
        if (structure.shared) structure = structure.copy();
        return structure;
    }

    @Override
    public Topology copy() {
        structure.ranked();
        structure.trees.values().forEach(DomainTree::ensureIndexed);
        structure.shared = true;
        TopologyIndex t = new TopologyIndex();
        t.structure = structure;
        t.nodeAt = nodeAt.clone();
        t.usedAt = usedAt.clone();
        t.readyAt = readyAt.clone();
        t.freeAt = freeAt.clone();
        t.withFreeAccelerators = new HashMap<>();
        withFreeAccelerators.forEach((type, set) -> t.withFreeAccelerators.put(type, (BitSet) set.clone()));
        caches.forEach((type, cache) -> {
            DomainTree tree = structure.trees.get(type);
            if (tree != null && tree.isIndexedAt(cache.version)) t.caches.put(type, upToDateCopy(cache));
        });
        return t;
    }

    /** The cache's shapes brought up to date (those too far behind left out), copied with an empty journal. */
    private ShapeCache upToDateCopy(ShapeCache cache) {
        ShapeCache c = new ShapeCache();
        c.version = cache.version;
        c.maxShapes = cache.maxShapes;
        for (Map.Entry<Resources, Counted> e : cache.byShape.entrySet()) {
            if (upToDate(cache, e.getValue(), e.getKey())) c.byShape.put(e.getKey(), new Counted(e.getValue().cap.clone(), 0));
        }
        return c;
    }

    // ---- queries -----------------------------------------------------------------------------

    @Override
    public List<Node> nodes() {
        Slot[] ranked = structure.ranked();
        List<Node> out = new ArrayList<>(ranked.length);
        for (Slot s : ranked) out.add(nodeAt[s.index]);
        return Collections.unmodifiableList(out);
    }

    @Override
    public Resources free(String nodeName) {
        Slot s = structure.slots.get(nodeName);
        if (s == null || !nodeAt[s.index].ready()) return Resources.ZERO;
        return nodeAt[s.index].allocatable().minus(usedAt[s.index]);
    }

    @Override
    public TopologyDomain domainOf(String nodeName, String level) {
        int idx = requireLevel(level);
        Slot s = structure.slots.get(nodeName);
        if (s == null) return null;
        return new TopologyDomain(level, Arrays.asList(s.path).subList(0, idx + 1));
    }

    @Override
    public Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level) {
        return capacityByDomain(podSet, level, Map.of());
    }

    @Override
    public Map<TopologyDomain, Long> capacityByDomain(PodSetRequest podSet, String level, Map<String, Resources> extraFree) {
        int idx = requireLevel(level);
        DomainTree tree = structure.trees.get(podSet.instanceType());
        if (tree == null) return Map.of();
        long[] cap = capacitiesFor(podSet, tree, extraFree);
        Map<TopologyDomain, Long> out = new LinkedHashMap<>();
        for (Domain d : tree.level(idx)) out.put(DomainTree.identity(d), cap[d.id]);
        return Collections.unmodifiableMap(out);
    }

    private static int requireLevel(String level) {
        int idx = TopologyLevels.indexOf(level);
        if (idx < 0) {
            throw new IllegalArgumentException("level must be one of " + TopologyLevels.ALL + ", was " + level);
        }
        return idx;
    }
}
