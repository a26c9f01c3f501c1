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
 * every domain). Reservations and readiness changes update the state by delta along one path of
 * the tree; only adding, removing or relabelling a node touches the structure. {@link #copy()}
 * shares the structure (copy-on-write) and clones the state arrays, so a copy costs
 * about one array copy per node and per cached shape.
 */
final class TopologyIndex implements Topology {

    /** Pod count standing for "unlimited" on one node (a pod that asks for nothing). */
    static final long UNLIMITED_PER_NODE = Integer.MAX_VALUE;
    private static final int MAX_CACHED_SHAPES = 32;

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

    /** Capacity arrays per pod shape for one instance type, valid for one tree version. */
    private static final class ShapeCache {
        int version;
        final LinkedHashMap<Resources, long[]> byShape = new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Resources, long[]> eldest) {
                return size() > MAX_CACHED_SHAPES;
            }
        };

        ShapeCache copy() {
            ShapeCache c = new ShapeCache();
            c.version = version;
            byShape.forEach((shape, cap) -> c.byShape.put(shape, cap.clone()));
            return c;
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
        if (!readyAt[i]) return 0;
        int f = 3 * i;
        long n = UNLIMITED_PER_NODE;
        if (perPod.accelerators() > 0) {
            n = Math.min(n, plus(freeAt[f], extraFree.accelerators()) / perPod.accelerators());
        }
        if (perPod.milliVcpu() > 0) {
            n = Math.min(n, plus(freeAt[f + 1], extraFree.milliVcpu()) / perPod.milliVcpu());
        }
        if (perPod.memoryMiB() > 0) {
            n = Math.min(n, plus(freeAt[f + 2], extraFree.memoryMiB()) / perPod.memoryMiB());
        }
        if (!perPod.partitions().isEmpty()) {
            // Partition types are open-ended, so they have no slot in freeAt: taken from the node and its usage.
            Resources allocatable = nodeAt[i].allocatable();
            for (Map.Entry<String, Long> p : perPod.partitions().entrySet()) {
                long free = Math.max(0, allocatable.partition(p.getKey()) - usedAt[i].partition(p.getKey()));
                n = Math.min(n, plus(free, extraFree.partition(p.getKey())) / p.getValue());
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
        if (cache.version != version) {
            cache.byShape.clear();
            cache.version = version;
        }
        long[] cap = cache.byShape.get(perPod);
        if (cap == null) {
            if (perPod.partitions().isEmpty() && perPod.accelerators() > 0) {
                // Nodes without a free accelerator hold none of its pods: only the others are counted.
                BitSet room = withFreeAccelerators.get(instanceType);
                cap = tree.computeCapacities(plainCapacity(perPod), room == null ? new BitSet() : room, structure.byIndex);
            } else {
                cap = tree.computeCapacities(perPod.partitions().isEmpty() ? plainCapacity(perPod) : s -> capacity(s, perPod, Resources.ZERO));
            }
            cache.byShape.put(perPod, cap);
        }
        return cap;
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

    /** Replaces a slot's node record and usage, moving each cached capacity by the node's difference. */
    private void updateSlot(Slot s, Node node, Resources used) {
        ShapeCache cache = liveCache(s);
        if (cache == null) {
            store(s.index, node, used);
            return;
        }
        long[] before = new long[cache.byShape.size()];
        int i = 0;
        for (Resources shape : cache.byShape.keySet()) before[i++] = capacity(s, shape, Resources.ZERO);
        store(s.index, node, used);
        i = 0;
        for (Map.Entry<Resources, long[]> e : cache.byShape.entrySet()) {
            long delta = capacity(s, e.getKey(), Resources.ZERO) - before[i++];
            if (delta != 0) DomainTree.addAlongPath(s, delta, e.getValue());
        }
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
        caches.forEach((type, cache) -> t.caches.put(type, cache.copy()));
        return t;
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
