package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Properties of placement on many random small clusters (seeded, so a failure repeats): checked
 * against a brute-force model of free capacity kept by the test itself.
 */
class PlacementPropertiesTest {

    private static final int ITERATIONS = 2000;
    private static final List<String> TYPES = List.of(TestCluster.P5, TestCluster.G5);

    /** The test's own model: nodes and what is used on each. */
    private static final class Model {
        final Map<String, Node> nodes = new TreeMap<>();
        final Map<String, Resources> used = new HashMap<>();

        Resources free(String node) {
            Node n = nodes.get(node);
            return n.ready() ? n.allocatable().minus(used.getOrDefault(node, Resources.ZERO)) : Resources.ZERO;
        }

        long capacity(String node, PodSetRequest ps) {
            Node n = nodes.get(node);
            if (!n.instanceType().equals(ps.instanceType()) || !n.ready()) return 0;
            return Math.min(free(node).countFitting(ps.perPod()), Integer.MAX_VALUE);
        }

        /** Capacity per domain path (values of levels 0..level) for a pod set. */
        Map<List<String>, Long> capacityByPath(PodSetRequest ps, int level) {
            Map<List<String>, Long> out = new HashMap<>();
            for (Node n : nodes.values()) {
                if (!n.instanceType().equals(ps.instanceType())) continue;
                out.merge(path(n, level), capacity(n.name(), ps), Long::sum);
            }
            return out;
        }

        Topology fresh() {
            Topology t = Topology.of(nodes.values());
            used.forEach((node, amount) -> {
                if (!amount.isZero()) TestCluster.reserveOn(t, node, amount);
            });
            return t;
        }
    }

    private static List<String> path(Node n, int level) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i <= level; i++) p.add(n.levelValue(TopologyLevels.ALL.get(i)));
        return p;
    }

    private static Node randomNode(Random rnd, String name) {
        Map<String, String> labels = new HashMap<>();
        String l1 = "nn-" + rnd.nextInt(2);
        String l2 = l1 + "-b" + rnd.nextInt(2);
        String l3 = l2 + "-r" + rnd.nextInt(3);
        if (rnd.nextInt(20) > 0) labels.put(TopologyLevels.LAYER_1, l1);
        if (rnd.nextInt(20) > 0) labels.put(TopologyLevels.LAYER_2, rnd.nextInt(10) == 0 ? "shared" : l2);
        if (rnd.nextInt(20) > 0) labels.put(TopologyLevels.LAYER_3, l3);
        if (rnd.nextInt(10) == 0) labels.put(TopologyLevels.HOSTNAME, "h" + rnd.nextInt(4));
        Resources allocatable = Resources.of(rnd.nextInt(9), 1000L * rnd.nextInt(200), 1024L * rnd.nextInt(64));
        return new Node(name, null, TYPES.get(rnd.nextInt(10) == 0 ? 1 : 0), labels, allocatable, rnd.nextInt(8) > 0);
    }

    private static Model randomModel(Random rnd) {
        Model m = new Model();
        int count = 1 + rnd.nextInt(12);
        for (int i = 0; i < count; i++) {
            Node n = randomNode(rnd, "n" + i);
            m.nodes.put(n.name(), n);
            if (rnd.nextBoolean()) {
                Resources a = n.allocatable();
                m.used.put(n.name(), Resources.of(rnd.nextInt((int) a.accelerators() + 1), 0, 0));
            }
        }
        return m;
    }

    /** A random model with at least {@code nodes} nodes. */
    private static Model randomModel(Random rnd, int nodes) {
        Model m = randomModel(rnd);
        while (m.nodes.size() < nodes) {
            Node n = randomNode(rnd, "n" + m.nodes.size());
            m.nodes.put(n.name(), n);
        }
        return m;
    }

    /**
     * One change of the nodes under cached shapes, in the topology and the model alike: the workload reserved where it
     * fits (asked for first, so brought up to date), a node's usage released, or a node turned ready or not (a change
     * of a slot, not of the tree).
     */
    private static void reserveReleaseOrFlip(Random rnd, Topology t, Model m, List<PodSetRequest> w) {
        int change = rnd.nextInt(10);
        if (change < 5) {
            reserveWhereItFits(t, m, w);
        } else if (change < 9) {
            String node = new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size()));
            release(t, m, node, m.used.getOrDefault(node, Resources.ZERO));
        } else {
            String name = new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size()));
            Node n = m.nodes.get(name);
            Node flipped = new Node(n.name(), n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), !n.ready());
            t.upsertNode(flipped);
            m.nodes.put(name, flipped);
        }
    }

    private static PodSetRequest randomPodSet(Random rnd, String name) {
        TopologyRequest t = switch (rnd.nextInt(3)) {
            case 0 -> TopologyRequest.NONE;
            case 1 -> TopologyRequest.required(TopologyLevels.ALL.get(rnd.nextInt(4)));
            default -> TopologyRequest.preferred(TopologyLevels.ALL.get(rnd.nextInt(4)));
        };
        Resources perPod = Resources.of(rnd.nextInt(4), 1000L * rnd.nextInt(3) * 8, 1024L * rnd.nextInt(3) * 4);
        return new PodSetRequest(name, 1 + rnd.nextInt(12), TYPES.get(rnd.nextInt(10) == 0 ? 1 : 0), perPod, t);
    }

    private static List<PodSetRequest> randomWorkload(Random rnd) {
        List<PodSetRequest> out = new ArrayList<>();
        int n = 1 + (rnd.nextInt(4) == 0 ? rnd.nextInt(3) : 0);
        for (int i = 0; i < n; i++) out.add(randomPodSet(rnd, "ps" + i));
        return out;
    }

    /** Places the workload and, when it fits, reserves it in the topology and the model alike. */
    private static void reserveWhereItFits(Topology t, Model m, List<PodSetRequest> w) {
        if (!(t.place(w) instanceof PlacementResult.Placed p)) return;
        t.reserve(w, p.placement());
        for (int i = 0; i < w.size(); i++) {
            Resources perPod = w.get(i).perPod();
            p.placement().podSets().get(i).podsPerNode().forEach((node, count) -> m.used.merge(node, perPod.times(count), Resources::plus));
        }
    }

    /** Gives {@code amount} of a node's usage back, in the topology and the model alike. */
    private static void release(Topology t, Model m, String node, Resources amount) {
        PodSetRequest one = new PodSetRequest("back", 1, m.nodes.get(node).instanceType(), amount, null);
        t.release(List.of(one), new Placement(List.of(new PodSetPlacement("back", one.instanceType(), null, new TreeMap<>(Map.of(node, 1))))));
        m.used.merge(node, amount, Resources::minus);
    }

    private static Map<List<String>, Long> nonZero(Map<TopologyDomain, Long> byDomain) {
        Map<List<String>, Long> out = new HashMap<>();
        byDomain.forEach((d, c) -> {
            if (c != 0) out.put(d.path(), c);
        });
        return out;
    }

    private static Map<List<String>, Long> nonZeroByPath(Map<List<String>, Long> byPath) {
        Map<List<String>, Long> out = new HashMap<>();
        byPath.forEach((p, c) -> {
            if (c != 0) out.put(p, c);
        });
        return out;
    }

    @Test
    void placementsNeverOverfillANodeAndPlaceEveryPod() {
        Random rnd = new Random(42);
        int placedCount = 0;
        for (int it = 0; it < ITERATIONS; it++) {
            Model m = randomModel(rnd);
            List<PodSetRequest> w = randomWorkload(rnd);
            if (!(m.fresh().place(w) instanceof PlacementResult.Placed placed)) continue;
            placedCount++;
            int iteration = it;
            Map<String, Resources> taken = new HashMap<>();
            for (int i = 0; i < w.size(); i++) {
                PodSetRequest ps = w.get(i);
                PodSetPlacement p = placed.placement().podSets().get(i);
                assertThat(p.name()).isEqualTo(ps.name());
                assertThat(p.podCount()).as("iteration %d: pods placed", it).isEqualTo(ps.count());
                p.podsPerNode().forEach((node, count) -> {
                    assertThat(count).isPositive();
                    Node n = m.nodes.get(node);
                    assertThat(n.ready()).as("iteration %d: %s ready", iteration, node).isTrue();
                    assertThat(n.instanceType()).isEqualTo(ps.instanceType());
                    taken.merge(node, ps.perPod().times(count), Resources::plus);
                });
            }
            taken.forEach((node, amount) -> assertThat(amount.fitsIn(m.free(node)))
                    .as("iteration %d: %s takes %s of %s free", iteration, node, amount, m.free(node)).isTrue());
        }
        assertThat(placedCount).as("enough placements to mean something").isGreaterThan(ITERATIONS / 4);
    }

    @Test
    void requiredPlacementIsFoundWhenOneExistsAndIsTheTightestDomain() {
        Random rnd = new Random(7);
        int found = 0;
        for (int it = 0; it < ITERATIONS; it++) {
            Model m = randomModel(rnd);
            PodSetRequest ps = randomPodSet(rnd, "worker");
            if (ps.topology().mode() != TopologyRequest.Mode.REQUIRED) continue;
            int level = TopologyLevels.indexOf(ps.topology().level());
            Map<List<String>, Long> caps = m.capacityByPath(ps, level);
            long best = caps.values().stream().mapToLong(Long::longValue).max().orElse(0);
            long tightest = caps.values().stream().mapToLong(Long::longValue).filter(c -> c >= ps.count()).min().orElse(-1);

            PlacementResult r = m.fresh().place(List.of(ps));
            if (best < ps.count()) {
                assertThat(r).as("iteration %d", it)
                        .isEqualTo(new PlacementResult.NoFit("worker", (int) best, "allows to fit only " + best + " out of " + ps.count() + " pods"));
                continue;
            }
            found++;
            assertThat(r).as("iteration %d: a domain holds %d of %d", it, best, ps.count()).isInstanceOf(PlacementResult.Placed.class);
            PodSetPlacement p = ((PlacementResult.Placed) r).placement().podSets().get(0);
            List<List<String>> paths = p.podsPerNode().keySet().stream().map(n -> path(m.nodes.get(n), level)).distinct().toList();
            assertThat(paths).as("iteration %d: one domain", it).hasSize(1);
            assertThat(p.domain()).isEqualTo(new PodSetPlacement.Domain(ps.topology().level(), paths.get(0).get(level)));
            assertThat(caps.get(paths.get(0))).as("iteration %d: best fit", it).isEqualTo(tightest);
        }
        assertThat(found).isGreaterThan(ITERATIONS / 20);
    }

    @Test
    void preferredStaysInOneDomainOfTheFirstLevelThatHoldsIt() {
        Random rnd = new Random(11);
        for (int it = 0; it < ITERATIONS; it++) {
            Model m = randomModel(rnd);
            PodSetRequest ps = randomPodSet(rnd, "worker");
            if (ps.topology().mode() != TopologyRequest.Mode.PREFERRED) continue;
            int expectedLevel = -1;
            for (int level = TopologyLevels.indexOf(ps.topology().level()); level >= 0 && expectedLevel < 0; level--) {
                if (m.capacityByPath(ps, level).values().stream().anyMatch(c -> c >= ps.count())) expectedLevel = level;
            }
            PlacementResult r = m.fresh().place(List.of(ps));
            if (!(r instanceof PlacementResult.Placed placed)) {
                long total = m.capacityByPath(ps, 0).values().stream().mapToLong(Long::longValue).sum();
                assertThat(total).as("iteration %d", it).isLessThan(ps.count());
                continue;
            }
            PodSetPlacement p = placed.placement().podSets().get(0);
            if (expectedLevel < 0) {
                assertThat(p.domain()).isNull();
            } else {
                int level = expectedLevel;
                assertThat(p.domain().level()).as("iteration %d", it).isEqualTo(TopologyLevels.ALL.get(level));
                assertThat(p.podsPerNode().keySet().stream().map(n -> path(m.nodes.get(n), level)).distinct()).hasSize(1);
            }
        }
    }

    @Test
    void incrementalUpdatesGiveTheSamePlacementsAsARebuild() {
        Random rnd = new Random(2026);
        for (int it = 0; it < ITERATIONS / 3; it++) {
            Model m = randomModel(rnd);
            Topology t = m.fresh();
            for (int step = 0; step < 12; step++) {
                List<PodSetRequest> w = randomWorkload(rnd);
                // Cache this shape's capacities, so that the next changes reach them through the journal.
                t.place(w);
                switch (rnd.nextInt(4)) {
                    case 0 -> reserveWhereItFits(t, m, w);
                    case 1 -> {
                        String node = new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size()));
                        release(t, m, node, m.used.getOrDefault(node, Resources.ZERO).min(Resources.accelerators(rnd.nextInt(4))));
                    }
                    case 2 -> {
                        String name = rnd.nextBoolean() ? "n" + rnd.nextInt(14) : new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size()));
                        Node n = randomNode(rnd, name);
                        t.upsertNode(n);
                        m.nodes.put(name, n);
                    }
                    default -> {
                        if (m.nodes.size() > 1) {
                            String node = new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size()));
                            t.removeNode(node);
                            m.nodes.remove(node);
                            m.used.remove(node);
                        }
                    }
                }
                List<PodSetRequest> probe = randomWorkload(rnd);
                assertThat(t.place(probe)).as("iteration %d step %d", it, step).isEqualTo(m.fresh().place(probe));
                // What is counted per domain (only over nodes with a free accelerator, for a pod that asks for one)
                // is what every node of the model holds.
                for (PodSetRequest ps : probe) {
                    for (int level = 0; level < TopologyLevels.ALL.size(); level++) {
                        assertThat(nonZero(t.capacityByDomain(ps, TopologyLevels.ALL.get(level))))
                                .as("iteration %d step %d level %d", it, step, level).isEqualTo(nonZeroByPath(m.capacityByPath(ps, level)));
                    }
                }
                Topology copy = t.copy();
                assertThat(copy.place(probe)).isEqualTo(m.fresh().place(probe));
                // Changing the copy leaves the original alone.
                if (copy.place(probe) instanceof PlacementResult.Placed p) copy.reserve(probe, p.placement());
                copy.removeNode(new ArrayList<>(m.nodes.keySet()).get(rnd.nextInt(m.nodes.size())));
                assertThat(t.place(probe)).isEqualTo(m.fresh().place(probe));
                assertThat(t.nodes()).containsExactlyElementsOf(m.nodes.values());
            }
        }
    }

    /**
     * Pod shapes that ask for the same accelerators and differ in vCPU or memory (which share the count of the
     * accelerators alone while no node runs short of their vCPU or memory first): on nodes where those bind and where
     * they do not, through reservations, releases and nodes turning ready or not, each counts per domain what every node
     * of the model holds and places as a rebuild does.
     */
    @Test
    void shapesThatDifferOnlyInVcpuOrMemoryCountWhatEachNodeHolds() {
        Random rnd = new Random(11);
        for (int it = 0; it < 40; it++) {
            Model m = randomModel(rnd, 8);
            Topology t = m.fresh();
            long accelerators = 1 + rnd.nextInt(2);
            for (int step = 0; step < 400; step++) {
                Resources perPod = Resources.of(accelerators, 4000L * rnd.nextInt(9), 2048L * rnd.nextInt(9));
                PodSetRequest ps = new PodSetRequest("ps", 1 + rnd.nextInt(8), TestCluster.P5, perPod,
                        rnd.nextBoolean() ? TopologyRequest.NONE : TopologyRequest.required(TopologyLevels.ALL.get(rnd.nextInt(4))));
                List<PodSetRequest> w = List.of(ps);
                for (int level = 0; level < TopologyLevels.ALL.size(); level++) {
                    assertThat(nonZero(t.capacityByDomain(ps, TopologyLevels.ALL.get(level))))
                            .as("iteration %d step %d %s level %d", it, step, perPod, level)
                            .isEqualTo(nonZeroByPath(m.capacityByPath(ps, level)));
                }
                assertThat(t.place(w)).as("iteration %d step %d %s", it, step, perPod).isEqualTo(m.fresh().place(w));
                reserveReleaseOrFlip(rnd, t, m, w);
            }
        }
    }

    /**
     * A cached shape is brought up to date from the changes made since it was last asked for: asked again after a few
     * changes, after more than can be replayed, after the journal dropped what every shape had passed, and in a copy,
     * it places as a topology built from scratch does.
     */
    @Test
    void cachedShapesAskedForAgainAfterAnyNumberOfChangesPlaceAsARebuild() {
        Random rnd = new Random(7);
        for (int it = 0; it < 12; it++) {
            Model m = randomModel(rnd, 6);
            Topology t = m.fresh();
            List<List<PodSetRequest>> shapes = new ArrayList<>();
            for (int i = 0; i < 24; i++) shapes.add(randomWorkload(rnd));
            shapes.forEach(t::place); // every shape cached
            for (int step = 0; step < 3_000; step++) {
                List<PodSetRequest> w = shapes.get(rnd.nextInt(shapes.size()));
                reserveReleaseOrFlip(rnd, t, m, w);
                if (rnd.nextInt(40) == 0) {
                    // seldom asked for: far behind by now, some beyond what is replayed
                    List<PodSetRequest> probe = shapes.get(rnd.nextInt(shapes.size()));
                    assertThat(t.place(probe)).as("iteration %d step %d", it, step).isEqualTo(m.fresh().place(probe));
                }
                if (rnd.nextInt(500) == 0) {
                    List<PodSetRequest> probe = shapes.get(rnd.nextInt(shapes.size()));
                    assertThat(t.copy().place(probe)).as("copy, iteration %d step %d", it, step).isEqualTo(m.fresh().place(probe));
                }
            }
            for (List<PodSetRequest> probe : shapes) {
                assertThat(t.place(probe)).as("iteration %d, at the end", it).isEqualTo(m.fresh().place(probe));
            }
        }
    }

    @Test
    void capacityWithExtraFreeEqualsCapacityAfterRelease() {
        Random rnd = new Random(99);
        for (int it = 0; it < ITERATIONS / 3; it++) {
            Model m = randomModel(rnd);
            Topology t = m.fresh();
            PodSetRequest ps = randomPodSet(rnd, "worker");
            String level = TopologyLevels.ALL.get(rnd.nextInt(4));
            Map<String, Resources> extra = new HashMap<>();
            m.used.forEach((node, amount) -> {
                if (rnd.nextBoolean()) extra.put(node, amount);
            });
            Map<TopologyDomain, Long> predicted = t.capacityByDomain(ps, level, extra);

            Topology after = t.copy();
            extra.forEach((node, amount) -> {
                PodSetRequest one = new PodSetRequest("victim", 1, m.nodes.get(node).instanceType(), amount, null);
                after.release(List.of(one), new Placement(List.of(new PodSetPlacement("victim", one.instanceType(), null,
                        new TreeMap<>(Map.of(node, 1))))));
            });
            assertThat(predicted).as("iteration %d", it).isEqualTo(after.capacityByDomain(ps, level));
            // The copy was changed, the original not.
            assertThat(t.capacityByDomain(ps, level)).isEqualTo(m.fresh().capacityByDomain(ps, level));
        }
    }

    /**
     * A pod set with a node selector is placed exactly as the same pod set without it on a
     * cluster of only the matching nodes, by the fast path (topology labels only) and the slow
     * path (the same selector plus the instance-type label, which every candidate node matches).
     */
    @Test
    void aNodeSelectorPlacesAsIfOnlyTheMatchingNodesExisted() {
        Random rnd = new Random(303);
        int placedCount = 0;
        for (int it = 0; it < ITERATIONS; it++) {
            Model m = randomModel(rnd);
            PodSetRequest plain = randomPodSet(rnd, "worker");
            Node pick = new ArrayList<>(m.nodes.values()).get(rnd.nextInt(m.nodes.size()));
            Map<String, String> selector = new TreeMap<>();
            for (String level : TopologyLevels.ALL) {
                if (rnd.nextInt(3) == 0 && !pick.levelValue(level).isEmpty()) selector.put(level, pick.levelValue(level));
            }
            if (selector.isEmpty()) selector.put(TopologyLevels.HOSTNAME, pick.levelValue(TopologyLevels.HOSTNAME));
            PodSetRequest fast = new PodSetRequest("worker", plain.count(), plain.instanceType(), plain.perPod(), plain.topology(), selector);
            Map<String, String> slowSelector = new TreeMap<>(selector);
            slowSelector.put(Node.INSTANCE_TYPE_LABEL, plain.instanceType());
            PodSetRequest slow = new PodSetRequest("worker", plain.count(), plain.instanceType(), plain.perPod(), plain.topology(), slowSelector);

            Model only = new Model();
            m.nodes.values().stream().filter(n -> n.matches(selector)).forEach(n -> only.nodes.put(n.name(), n));
            only.nodes.keySet().forEach(n -> only.used.put(n, m.used.getOrDefault(n, Resources.ZERO)));
            PlacementResult expected = only.nodes.isEmpty()
                    ? new PlacementResult.NoFit("worker", 0, "") : only.fresh().place(List.of(plain));

            Topology t = m.fresh();
            for (PodSetRequest ps : List.of(fast, slow)) {
                PlacementResult r = t.place(List.of(ps));
                if (expected instanceof PlacementResult.Placed) {
                    placedCount++;
                    assertThat(r).as("iteration %d, selector %s", it, ps.nodeSelector()).isEqualTo(expected);
                } else {
                    assertThat(r).as("iteration %d", it).isInstanceOf(PlacementResult.NoFit.class);
                    assertThat(((PlacementResult.NoFit) r).fitting()).as("iteration %d", it)
                            .isEqualTo(((PlacementResult.NoFit) expected).fitting());
                }
            }
        }
        assertThat(placedCount).as("enough placements to mean something").isGreaterThan(ITERATIONS / 10);
    }
}
