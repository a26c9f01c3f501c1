package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The domains of one instance type's nodes: a virtual root, then layer-1, layer-2, layer-3 and
 * host domains, children sorted by label value.
 *
 * <p>Capacities ("how many pods of this shape fit") are kept per pod shape in a small LRU cache
 * of arrays indexed by domain id, and updated by delta when a node's free capacity changes, so a
 * placement reads them instead of visiting every node. Adding or removing a node changes the
 * structure: ids are renumbered (preorder, so id order is the lexicographic order of full paths
 * within a level) and the cache is dropped, lazily on the next read.
 */
final class DomainTree {

    /** Pod count standing for "unlimited" on one node (a pod that asks for nothing). */
    static final long UNLIMITED_PER_NODE = Integer.MAX_VALUE;
    static final int HOST_LEVEL = TopologyLevels.ALL.size() - 1;
    private static final int MAX_CACHED_SHAPES = 32;

    /** One domain. The root has level -1; host domains (level 3) hold nodes instead of children. */
    static final class Domain {
        final int level;
        final String value;
        final Domain parent;
        final TreeMap<String, Domain> children = new TreeMap<>();
        final TreeMap<String, NodeState> members = new TreeMap<>();
        int id;
        Domain[] childArray;
        NodeState[] memberArray;

        Domain(int level, String value, Domain parent) {
            this.level = level;
            this.value = value;
            this.parent = parent;
        }

        boolean isEmpty() {
            return children.isEmpty() && members.isEmpty();
        }
    }

    /** A node and what reservations hold on it. */
    static final class NodeState {
        Node node;
        Resources used;
        Domain host;
        /** Position in name order among all nodes of the topology (see {@link PodCounts}). */
        int rank;

        NodeState(Node node, Resources used) {
            this.node = node;
            this.used = used;
        }

        Resources free() {
            return node.allocatable().minus(used);
        }

        /** How many pods of this shape fit on the node now. */
        long capacity(Resources perPod) {
            return capacity(perPod, Resources.ZERO);
        }

        /** Same as {@code min(free().plus(extraFree).countFitting(perPod), UNLIMITED_PER_NODE)}, without allocating. */
        long capacity(Resources perPod, Resources extraFree) {
            if (!node.ready()) return 0;
            Resources a = node.allocatable();
            long n = UNLIMITED_PER_NODE;
            if (perPod.accelerators() > 0) {
                n = Math.min(n, free(a.accelerators(), used.accelerators(), extraFree.accelerators()) / perPod.accelerators());
            }
            if (perPod.milliVcpu() > 0) {
                n = Math.min(n, free(a.milliVcpu(), used.milliVcpu(), extraFree.milliVcpu()) / perPod.milliVcpu());
            }
            if (perPod.memoryMiB() > 0) {
                n = Math.min(n, free(a.memoryMiB(), used.memoryMiB(), extraFree.memoryMiB()) / perPod.memoryMiB());
            }
            return n;
        }

        private static long free(long allocatable, long used, long extra) {
            long sum = Math.max(0, allocatable - used) + extra;
            return sum < 0 ? Long.MAX_VALUE : sum;
        }
    }

    final Domain root = new Domain(-1, "", null);
    private boolean dirty = true;
    private Domain[] byId = new Domain[0];
    private final Domain[][] byLevel = new Domain[TopologyLevels.ALL.size()][];
    /** Ids of each level's domains, ascending (= full-path order); scanned without touching the domains. */
    private final int[][] idsByLevel = new int[TopologyLevels.ALL.size()][];
    private final LinkedHashMap<Resources, long[]> capacityCache = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<Resources, long[]> eldest) {
            return size() > MAX_CACHED_SHAPES;
        }
    };

    static String[] pathOf(Node node) {
        String[] path = new String[TopologyLevels.ALL.size()];
        for (int i = 0; i < path.length; i++) {
            path[i] = node.levelValue(TopologyLevels.ALL.get(i));
        }
        return path;
    }

    void add(NodeState ns) {
        String[] path = pathOf(ns.node);
        Domain d = root;
        for (int level = 0; level < path.length; level++) {
            Domain parent = d;
            int lvl = level;
            d = parent.children.computeIfAbsent(path[level], v -> new Domain(lvl, v, parent));
        }
        d.members.put(ns.node.name(), ns);
        ns.host = d;
        dirty = true;
    }

    void remove(NodeState ns) {
        Domain d = ns.host;
        d.members.remove(ns.node.name());
        while (d.parent != null && d.isEmpty()) {
            d.parent.children.remove(d.value);
            d = d.parent;
        }
        ns.host = null;
        dirty = true;
    }

    boolean isEmpty() {
        return root.isEmpty();
    }

    /**
     * A deep copy with the same ids and cached capacities; each node's state is copied too and
     * put into {@code nodesOut} by name.
     */
    DomainTree copy(Map<String, NodeState> nodesOut) {
        DomainTree t = new DomainTree();
        t.dirty = dirty;
        if (!dirty) {
            t.byId = new Domain[byId.length];
            for (int i = 0; i < byLevel.length; i++) {
                t.byLevel[i] = new Domain[byLevel[i].length];
                t.idsByLevel[i] = idsByLevel[i];
            }
        }
        copyChildren(root, t.root, t, nodesOut);
        if (!dirty) {
            for (Domain d : t.byId) {
                if (d.level >= 0) t.byLevel[d.level][levelIndex(d)] = d;
            }
            capacityCache.forEach((shape, cap) -> t.capacityCache.put(shape, cap.clone()));
        }
        return t;
    }

    private int levelIndex(Domain copy) {
        return Arrays.binarySearch(idsByLevel[copy.level], copy.id);
    }

    private void copyChildren(Domain from, Domain to, DomainTree target, Map<String, NodeState> nodesOut) {
        to.id = from.id;
        if (!dirty) target.byId[to.id] = to;
        for (Domain c : from.children.values()) {
            Domain cc = new Domain(c.level, c.value, to);
            to.children.put(c.value, cc);
            copyChildren(c, cc, target, nodesOut);
        }
        for (NodeState ns : from.members.values()) {
            NodeState copy = new NodeState(ns.node, ns.used);
            copy.host = to;
            to.members.put(ns.node.name(), copy);
            nodesOut.put(ns.node.name(), copy);
        }
        if (!dirty) {
            to.childArray = to.children.values().toArray(Domain[]::new);
            to.memberArray = to.members.values().toArray(NodeState[]::new);
        }
    }

    /** Subtracts ({@code sign = -1}) or adds back ({@code +1}) a node's pods from every cached capacity. */
    void adjust(NodeState ns, int sign) {
        if (dirty) return;
        for (Map.Entry<Resources, long[]> e : capacityCache.entrySet()) {
            long delta = sign * ns.capacity(e.getKey());
            if (delta == 0) continue;
            long[] cap = e.getValue();
            for (Domain d = ns.host; d != null; d = d.parent) {
                cap[d.id] += delta;
            }
        }
    }

    private void ensureIndexed() {
        if (!dirty) return;
        List<Domain> order = new ArrayList<>();
        List<List<Domain>> levels = new ArrayList<>();
        for (int i = 0; i < byLevel.length; i++) levels.add(new ArrayList<>());
        number(root, order, levels);
        byId = order.toArray(Domain[]::new);
        for (int i = 0; i < byLevel.length; i++) {
            byLevel[i] = levels.get(i).toArray(Domain[]::new);
            idsByLevel[i] = levels.get(i).stream().mapToInt(d -> d.id).toArray();
        }
        capacityCache.clear();
        dirty = false;
    }

    private static void number(Domain d, List<Domain> order, List<List<Domain>> levels) {
        d.id = order.size();
        order.add(d);
        if (d.level >= 0) levels.get(d.level).add(d);
        d.childArray = d.children.values().toArray(Domain[]::new);
        d.memberArray = d.members.values().toArray(NodeState[]::new);
        for (Domain c : d.childArray) number(c, order, levels);
    }

    /** Capacity per domain id for pods of this shape (cached; do not modify the array). */
    long[] capacities(Resources perPod) {
        ensureIndexed();
        long[] cap = capacityCache.get(perPod);
        if (cap == null) {
            cap = computeCapacities(perPod, Map.of());
            capacityCache.put(perPod, cap);
        }
        return cap;
    }

    /** Capacity per domain id as if some nodes had extra free resources (not cached). */
    long[] computeCapacities(Resources perPod, Map<String, Resources> extraFree) {
        ensureIndexed();
        long[] cap = new long[byId.length];
        for (Domain host : byLevel[HOST_LEVEL]) {
            long sum = 0;
            for (NodeState ns : host.memberArray) {
                sum += ns.capacity(perPod, extraFree.getOrDefault(ns.node.name(), Resources.ZERO));
            }
            cap[host.id] = sum;
        }
        // Preorder ids: every child has a larger id than its parent, so a reverse sweep sums bottom-up.
        for (int id = byId.length - 1; id > 0; id--) {
            cap[byId[id].parent.id] += cap[id];
        }
        return cap;
    }

    Domain[] level(int level) {
        ensureIndexed();
        return byLevel[level];
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
     * per node to {@code out}.
     */
    void descend(Domain d, long pods, long[] cap, Resources perPod, PodCounts out) {
        if (d.level == HOST_LEVEL) {
            long remaining = pods;
            for (NodeState ns : d.memberArray) {
                if (remaining == 0) break;
                long take = Math.min(remaining, ns.capacity(perPod));
                if (take > 0) {
                    out.add(ns, (int) take);
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
            descend(tightest, pods, cap, perPod, out);
            return;
        }
        // No single child holds them all: fill from the largest down, the last one by best fit.
        Domain[] sorted = children.clone();
        Arrays.sort(sorted, (x, y) -> {
            int c = Long.compare(cap[y.id], cap[x.id]);
            return c != 0 ? c : Integer.compare(x.id, y.id);
        });
        long remaining = pods;
        for (int i = 0; i < sorted.length && remaining > 0; i++) {
            Domain c = sorted[i];
            if (cap[c.id] >= remaining) {
                Domain last = c;
                for (int j = i + 1; j < sorted.length && cap[sorted[j].id] >= remaining; j++) {
                    if (cap[sorted[j].id] < cap[last.id]) last = sorted[j];
                }
                descend(last, remaining, cap, perPod, out);
                remaining = 0;
            } else if (cap[c.id] > 0) {
                descend(c, cap[c.id], cap, perPod, out);
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
}
