package dev.taskgov.core.topology;

import dev.taskgov.core.resources.Resources;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/** Fluent builder of small clusters for topology tests. */
final class TestCluster {

    static final String P5 = "ml.p5.48xlarge";
    static final String G5 = "ml.g5.8xlarge";
    /** An ml.p5.48xlarge: 8 accelerators, 192 vCPU, 2048 GiB. */
    static final Resources P5_SHAPE = Resources.of(8, 192_000, 2048 * 1024);

    private final List<Node> nodes = new ArrayList<>();
    private final Map<String, Resources> used = new LinkedHashMap<>();
    private final List<Consumer<Topology>> afterBuild = new ArrayList<>();
    private String instanceType = P5;
    private Resources allocatable = P5_SHAPE;
    private boolean ready = true;

    static TestCluster cluster() {
        return new TestCluster();
    }

    /** Instance type of the nodes added next. */
    TestCluster type(String instanceType) {
        this.instanceType = instanceType;
        return this;
    }

    /** Allocatable of the nodes added next. */
    TestCluster allocatable(Resources allocatable) {
        this.allocatable = allocatable;
        return this;
    }

    /** Accelerators-only allocatable of the nodes added next (vCPU and memory stay as the P5's). */
    TestCluster gpus(int accelerators) {
        this.allocatable = P5_SHAPE.with(dev.taskgov.core.resources.ResourceName.ACCELERATORS, accelerators);
        return this;
    }

    /** Readiness of the nodes added next. */
    TestCluster ready(boolean ready) {
        this.ready = ready;
        return this;
    }

    /** Hosts in one rack, labelled with the three layers (hostname label absent). */
    TestCluster rack(String l1, String l2, String l3, String... hosts) {
        for (String h : hosts) {
            node(h, labels(l1, l2, l3));
        }
        return this;
    }

    TestCluster node(String name, Map<String, String> labels) {
        nodes.add(new Node(name, null, instanceType, labels, allocatable, ready));
        return this;
    }

    /** Already reserved on a node when the topology is built. */
    TestCluster used(String node, Resources amount) {
        used.merge(node, amount, Resources::plus);
        return this;
    }

    /** Anything to do to the topology once built (upserts, removals, reservations). */
    TestCluster then(Consumer<Topology> action) {
        afterBuild.add(action);
        return this;
    }

    static Map<String, String> labels(String l1, String l2, String l3) {
        Map<String, String> m = new HashMap<>();
        if (l1 != null) m.put(TopologyLevels.LAYER_1, l1);
        if (l2 != null) m.put(TopologyLevels.LAYER_2, l2);
        if (l3 != null) m.put(TopologyLevels.LAYER_3, l3);
        return m;
    }

    List<Node> nodes() {
        return List.copyOf(nodes);
    }

    Topology build() {
        Topology t = Topology.of(nodes);
        used.forEach((node, amount) -> reserveOn(t, node, amount));
        afterBuild.forEach(a -> a.accept(t));
        return t;
    }

    static void reserveOn(Topology t, String node, Resources amount) {
        String type = t.nodes().stream().filter(n -> n.name().equals(node)).findFirst().orElseThrow().instanceType();
        PodSetRequest one = new PodSetRequest("used", 1, type, amount, TopologyRequest.NONE);
        t.reserve(List.of(one), new Placement(List.of(new PodSetPlacement("used", type, null,
                new java.util.TreeMap<>(Map.of(node, 1))))));
    }

    @Override
    public String toString() {
        return nodes.size() + " nodes";
    }
}
