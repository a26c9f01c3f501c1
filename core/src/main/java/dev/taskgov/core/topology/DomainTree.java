package dev.taskgov.core.topology;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The domains of one instance type's nodes: a virtual root, then layer-1, layer-2, layer-3 and
 * host domains, children sorted by label value. Structure only: what is free on the nodes lives in
 * {@link TopologyIndex}, so that copies can share a tree.
 *
 * <p>Domain ids are preorder numbers given by {@link #ensureIndexed()} after the structure changed,
 * so id order within a level is the lexicographic order of full paths, and every child has a
 * larger id than its parent. Capacities are arrays indexed by id.
 */
final class DomainTree {

    static final int HOST_LEVEL = TopologyLevels.ALL.size() - 1;

    /** How many pods of the current shape fit on one node (0 for a node that is not ready). */
    @FunctionalInterface
    interface SlotCapacity {
        long of(Slot slot);
    }

    /** One domain. The root has level -1; host domains hold nodes instead of children. */
    static final class Domain {
        final int level;
        final String value;
        final Domain parent;
        final TreeMap<String, Domain> children = new TreeMap<>();
        final TreeMap<String, Slot> members = new TreeMap<>();
        int id;
        /** One past the largest id in this domain's subtree (preorder ids make it a range). */
        int end;
        Domain[] childArray;
        Slot[] memberArray;

        Domain(int level, String value, Domain parent) {
            this.level = level;
            this.value = value;
            this.parent = parent;
        }

        boolean isEmpty() {
            return children.isEmpty() && members.isEmpty();
        }
    }

    /** A node's place in the structure: its state index, host domain and rank in name order. */
    static final class Slot {
        final int index;
        final String name;
        final String instanceType;
        final String[] path;
        Domain host;
        int rank;
        /** Ids of the host domain and its ancestors up to the root, set by indexing. */
        int[] pathIds;

        Slot(int index, String name, String instanceType, String[] path) {
            this.index = index;
            this.name = name;
            this.instanceType = instanceType;
            this.path = path;
        }
    }

    final Domain root = new Domain(-1, "", null);
    private boolean dirty = true;
    /** Bumped when ids change; capacity arrays of another version are stale. */
    private int version;
    private Domain[] byId = new Domain[0];
    private final int[][] idsByLevel = new int[TopologyLevels.ALL.size()][];

    static String[] pathOf(Node node) {
        String[] path = new String[TopologyLevels.ALL.size()];
        for (int i = 0; i < path.length; i++) {
            path[i] = node.levelValue(TopologyLevels.ALL.get(i));
        }
        return path;
    }

    void add(Slot slot) {
        Domain d = root;
        for (int level = 0; level < slot.path.length; level++) {
            Domain parent = d;
            int lvl = level;
            d = parent.children.computeIfAbsent(slot.path[level], v -> new Domain(lvl, v, parent));
        }
        d.members.put(slot.name, slot);
        slot.host = d;
        dirty = true;
    }

    void remove(Slot slot) {
        Domain d = slot.host;
        d.members.remove(slot.name);
        while (d.parent != null && d.isEmpty()) {
            d.parent.children.remove(d.value);
            d = d.parent;
        }
        slot.host = null;
        dirty = true;
    }

    boolean isEmpty() {
        return root.isEmpty();
    }

    /** Ids, arrays and {@link #version()} brought up to date with the structure. */
    void ensureIndexed() {
        if (!dirty) return;
        List<Domain> order = new ArrayList<>();
        List<List<Domain>> levels = new ArrayList<>();
        for (int i = 0; i < idsByLevel.length; i++) levels.add(new ArrayList<>());
        number(root, order, levels);
        byId = order.toArray(Domain[]::new);
        for (int i = 0; i < idsByLevel.length; i++) {
            idsByLevel[i] = levels.get(i).stream().mapToInt(d -> d.id).toArray();
        }
        version++;
        dirty = false;
    }

    int version() {
        ensureIndexed();
        return version;
    }

    /** How many domains (hosts included) the tree holds: the length of a capacity array. */
    int domains() {
        ensureIndexed();
        return byId.length;
    }

    /** True when ids are those of {@code version} (without re-indexing). */
    boolean isIndexedAt(int version) {
        return !dirty && this.version == version;
    }

    private static void number(Domain d, List<Domain> order, List<List<Domain>> levels) {
        d.id = order.size();
        order.add(d);
        if (d.level >= 0) levels.get(d.level).add(d);
        d.childArray = d.children.values().toArray(Domain[]::new);
        d.memberArray = d.members.values().toArray(Slot[]::new);
        for (Domain c : d.childArray) number(c, order, levels);
        d.end = order.size();
        if (d.level == HOST_LEVEL) {
            int[] ids = new int[HOST_LEVEL + 2];
            int i = 0;
            for (Domain x = d; x != null; x = x.parent) ids[i++] = x.id;
            for (Slot s : d.memberArray) s.pathIds = ids;
        }
    }

    /** Capacity per domain id: per host the sum over its nodes, per inner domain the sum over its children. */
    long[] computeCapacities(SlotCapacity capacity) {
        return computeCapacities(capacity, null);
    }

    /** {@link #computeCapacities(SlotCapacity)} written into {@code reuse} when it has this tree's size (else a new array). */
    long[] computeCapacities(SlotCapacity capacity, long[] reuse) {
        ensureIndexed();
        long[] cap = zeroed(reuse);
        for (int hostId : idsByLevel[HOST_LEVEL]) {
            long sum = 0;
            for (Slot s : byId[hostId].memberArray) sum += capacity.of(s);
            cap[hostId] = sum;
        }
        // Preorder ids: a reverse sweep adds every domain into its parent after its own children.
        for (int id = byId.length - 1; id > 0; id--) {
            cap[byId[id].parent.id] += cap[id];
        }
        return cap;
    }

    /**
     * {@link #computeCapacities(SlotCapacity)} when every node but those in {@code slots} (state indexes, {@code byIndex}
     * their slots) holds none: each of these added along its path, the same sums without visiting the others.
     */
    long[] computeCapacities(SlotCapacity capacity, BitSet slots, Slot[] byIndex, long[] reuse) {
        ensureIndexed();
        long[] cap = zeroed(reuse);
        for (int i = slots.nextSetBit(0); i >= 0; i = slots.nextSetBit(i + 1)) {
            long c = capacity.of(byIndex[i]);
            if (c != 0) addAlongPath(byIndex[i], c, cap);
        }
        return cap;
    }

    /** An array of one zero per domain: {@code reuse} cleared when it has the size, else a new one. */
    private long[] zeroed(long[] reuse) {
        if (reuse == null || reuse.length != byId.length) return new long[byId.length];
        Arrays.fill(reuse, 0);
        return reuse;
    }

    /**
     * The capacities of only the subtrees whose path has the wanted values: {@code wanted[i]} is
     * the value required at level i, or {@code null} for any. Other domains hold 0; ancestors hold
     * the sum of their matching parts. The fast path of a node selector on topology labels: one
     * copy of each matching subtree's range, no per-node work.
     */
    long[] restrict(long[] cap, String[] wanted) {
        ensureIndexed();
        int deepest = -1;
        for (int i = 0; i < wanted.length; i++) {
            if (wanted[i] != null) deepest = i;
        }
        long[] out = new long[cap.length];
        if (deepest < 0) {
            System.arraycopy(cap, 0, out, 0, cap.length);
            return out;
        }
        for (int id : idsByLevel[deepest]) {
            Domain d = byId[id];
            if (!pathMatches(d, wanted)) continue;
            System.arraycopy(cap, d.id, out, d.id, d.end - d.id);
            for (Domain x = d.parent; x != null; x = x.parent) out[x.id] += cap[d.id];
        }
        return out;
    }

    private static boolean pathMatches(Domain d, String[] wanted) {
        for (Domain x = d; x.level >= 0; x = x.parent) {
            if (wanted[x.level] != null && !wanted[x.level].equals(x.value)) return false;
        }
        return true;
    }

    /** Adds {@code delta} pods of capacity to a host and its ancestors. */
    static void addAlongPath(Slot slot, long delta, long[] cap) {
        for (int id : slot.pathIds) cap[id] += delta;
    }

    /** The domains of a level, in full-path order. */
    List<Domain> level(int level) {
        ensureIndexed();
        List<Domain> out = new ArrayList<>(idsByLevel[level].length);
        for (int id : idsByLevel[level]) out.add(byId[id]);
        return out;
    }

    /**
     * The best-fit domain of a level for {@code pods} pods: the least capacity that still holds
     * them; ties to the one inside the tightest parent, then grandparent, then the smallest path.
     * {@code null} when none holds them.
     */
    Domain tightestFitting(int level, long pods, long[] cap) {
        ensureIndexed();
        Domain best = null;
        for (int id : idsByLevel[level]) {
            if (cap[id] >= pods && (best == null || tighter(byId[id], best, cap))) best = byId[id];
        }
        return best;
    }

    /** The largest capacity of any one domain of a level. */
    long maxCapacity(int level, long[] cap) {
        ensureIndexed();
        long max = 0;
        for (int id : idsByLevel[level]) max = Math.max(max, cap[id]);
        return max;
    }

    private static boolean tighter(Domain a, Domain b, long[] cap) {
        for (Domain x = a, y = b; x != y; x = x.parent, y = y.parent) {
            int c = Long.compare(cap[x.id], cap[y.id]);
            if (c != 0) return c < 0;
        }
        return a.id < b.id;
    }

    /**
     * Puts {@code pods} pods into domain {@code d} (which holds at least that many), adding pods
     * per node to {@code out}: the tightest child that holds them all, or else children from the
     * largest capacity down with the last one by best fit; at a host, node by node.
     */
    void descend(Domain d, long pods, long[] cap, SlotCapacity capacity, PodCounts out) {
        if (d.level == HOST_LEVEL) {
            long remaining = pods;
            for (Slot s : d.memberArray) {
                if (remaining == 0) break;
                long take = Math.min(remaining, capacity.of(s));
                if (take > 0) {
                    out.add(s, (int) take);
                    remaining -= take;
                }
            }
            return;
        }
        Domain[] children = d.childArray;
        Domain tightest = null;
        for (Domain c : children) {
            if (cap[c.id] >= pods && (tightest == null || cap[c.id] < cap[tightest.id])) tightest = c;
        }
        if (tightest != null) {
            descend(tightest, pods, cap, capacity, out);
            return;
        }
        Domain[] sorted = children.clone();
        Arrays.sort(sorted, (x, y) -> {
            int c = Long.compare(cap[y.id], cap[x.id]);
            return c != 0 ? c : Integer.compare(x.id, y.id);
        });
        long remaining = pods;
        for (int i = 0; i < sorted.length && remaining > 0; i++) {
            Domain c = sorted[i];
            if (cap[c.id] >= remaining) {
                // The largest left holds the rest: take the tightest that does (first of equals = smallest path).
                Domain last = c;
                for (int j = i + 1; j < sorted.length && cap[sorted[j].id] >= remaining; j++) {
                    if (cap[sorted[j].id] < cap[last.id]) last = sorted[j];
                }
                descend(last, remaining, cap, capacity, out);
                remaining = 0;
            } else if (cap[c.id] > 0) {
                descend(c, cap[c.id], cap, capacity, out);
                remaining -= cap[c.id];
            }
        }
    }

    /** The public identity of a domain: its level and full path. */
    static TopologyDomain identity(Domain d) {
        String[] path = new String[d.level + 1];
        for (Domain x = d; x.level >= 0; x = x.parent) path[x.level] = x.value;
        return new TopologyDomain(TopologyLevels.ALL.get(d.level), Arrays.asList(path));
    }

    /**
     * A deep copy with the same ids (when indexed); its slots are new objects, put into
     * {@code slotsOut} by name.
     */
    DomainTree copy(Map<String, Slot> slotsOut) {
        ensureIndexed();
        DomainTree t = new DomainTree();
        t.byId = new Domain[byId.length];
        System.arraycopy(idsByLevel, 0, t.idsByLevel, 0, idsByLevel.length);
        copyInto(root, t.root, t, slotsOut);
        t.version = version;
        t.dirty = false;
        return t;
    }

    private static void copyInto(Domain from, Domain to, DomainTree target, Map<String, Slot> slotsOut) {
        to.id = from.id;
        to.end = from.end;
        target.byId[to.id] = to;
        for (Domain c : from.childArray) {
            Domain cc = new Domain(c.level, c.value, to);
            to.children.put(c.value, cc);
            copyInto(c, cc, target, slotsOut);
        }
        for (Slot s : from.memberArray) {
            Slot copy = new Slot(s.index, s.name, s.instanceType, s.path);
            copy.host = to;
            copy.rank = s.rank;
            copy.pathIds = s.pathIds;
            to.members.put(s.name, copy);
            slotsOut.put(s.name, copy);
        }
        to.childArray = to.children.values().toArray(Domain[]::new);
        to.memberArray = to.members.values().toArray(Slot[]::new);
    }
}
