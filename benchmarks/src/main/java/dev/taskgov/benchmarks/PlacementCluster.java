package dev.taskgov.benchmarks;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The benchmark cluster: 4 layer-1 domains x 16 layer-2 domains each x racks of about 3.9 hosts
 * (40 racks per block for 10,000 nodes), 8 accelerators per node, about half of them already
 * reserved at random (uniform 0..8 per node, seeded).
 */
final class PlacementCluster {

    static final String INSTANCE_TYPE = "ml.p5.48xlarge";
    static final Resources NODE = Resources.of(8, 192_000, 2048L * 1024);
    static final int LAYER_1 = 4;
    static final int LAYER_2_PER_LAYER_1 = 16;
    /** Hosts per rack on average: 10,000 nodes / (4 x 16 x 40 racks). */
    static final double HOSTS_PER_RACK = 10_000.0 / (LAYER_1 * LAYER_2_PER_LAYER_1 * 40);

    private PlacementCluster() {
    }

    static List<Node> nodes(int count) {
        int blocks = LAYER_1 * LAYER_2_PER_LAYER_1;
        int racksPerBlock = (int) Math.max(1, Math.round(count / (blocks * HOSTS_PER_RACK)));
        int racks = blocks * racksPerBlock;
        List<Node> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int rack = i % racks;
            int block = rack / racksPerBlock;
            int layer1 = block / LAYER_2_PER_LAYER_1;
            String l1 = "nn-" + layer1;
            String l2 = l1 + "-b" + block;
            String l3 = l2 + "-r" + rack;
            out.add(new Node(String.format("node-%05d", i), null, INSTANCE_TYPE,
                    Map.of(TopologyLevels.LAYER_1, l1, TopologyLevels.LAYER_2, l2, TopologyLevels.LAYER_3, l3), NODE, true));
        }
        return out;
    }

    /** A topology of {@code count} nodes with about half of the accelerators reserved. */
    static Topology halfUsed(int count, long seed) {
        List<Node> nodes = nodes(count);
        Topology t = Topology.of(nodes);
        Random rnd = new Random(seed);
        PodSetRequest oneGpu = podSet(1, TopologyRequest.NONE);
        for (Node n : nodes) {
            int used = rnd.nextInt(9);
            if (used > 0) {
                t.reserve(List.of(oneGpu), new Placement(List.of(new PodSetPlacement(oneGpu.name(), INSTANCE_TYPE, null,
                        new TreeMap<>(Map.of(n.name(), used))))));
            }
        }
        return t;
    }

    static PodSetRequest podSet(int pods, TopologyRequest topology) {
        return new PodSetRequest("worker", pods, INSTANCE_TYPE, Resources.accelerators(1), topology);
    }

    /**
     * The narrowest of layer-3, layer-2, layer-1 where some domain holds the pods; layer-1 when
     * none does (the placement is then a NoFit).
     */
    static String narrowestFittingLevel(Topology t, int pods) {
        PodSetRequest probe = podSet(pods, TopologyRequest.NONE);
        for (String level : List.of(TopologyLevels.LAYER_3, TopologyLevels.LAYER_2)) {
            if (t.capacityByDomain(probe, level).values().stream().anyMatch(c -> c >= pods)) return level;
        }
        return TopologyLevels.LAYER_1;
    }
}
