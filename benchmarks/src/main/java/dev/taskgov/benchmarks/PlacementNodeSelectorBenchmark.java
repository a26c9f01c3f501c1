package dev.taskgov.benchmarks;

import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PlacementResult;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.Topology;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Placement with a pod set {@code nodeSelector} (seed 000 pins a rack): 10,000 nodes about half used
 * (as {@link PlacementBenchmark}), every node also labelled {@code node.taskgov.dev/pool} a or b,
 * {@code pods} 1-GPU pods required in one layer-3 rack.
 *
 * <ul>
 *   <li>{@code none}: no selector, the cached capacities of the shape.</li>
 *   <li>{@code rack}: the layer-3 label of the rack with the most room: the fast path, the cached
 *       capacities restricted to that subtree.</li>
 *   <li>{@code rackAndPool}: the same rack plus the pool label, which is not a topology level: the
 *       slow path, capacities recomputed node by node.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@Fork(1)
public class PlacementNodeSelectorBenchmark {

    static final String POOL = "node.taskgov.dev/pool";

    @Param({"8", "16"})
    public int pods;

    @Param({"none", "rack", "rackAndPool"})
    public String selector;

    private Topology topology;
    private List<PodSetRequest> workload;

    @Setup(Level.Trial)
    public void setUp() {
        Topology halfUsed = PlacementCluster.halfUsed(10_000, 20261130L);
        // the same nodes and usage, each node also in pool a or b
        List<Node> labelled = new ArrayList<>();
        Random rnd = new Random(7);
        for (Node n : halfUsed.nodes()) {
            Map<String, String> labels = new HashMap<>(n.labels());
            labels.put(POOL, rnd.nextBoolean() ? "a" : "b");
            labelled.add(new Node(n.name(), n.instanceId(), n.instanceType(), labels, n.allocatable(), n.ready()));
        }
        topology = halfUsed;
        labelled.forEach(topology::upsertNode);
        PodSetRequest probe = PlacementCluster.podSet(pods, TopologyRequest.NONE);
        String rack = topology.capacityByDomain(probe, TopologyLevels.LAYER_3).entrySet().stream()
                .max(Map.Entry.comparingByValue()).orElseThrow().getKey().value();
        Map<String, String> nodeSelector = switch (selector) {
            case "none" -> Map.of();
            case "rack" -> Map.of(TopologyLevels.LAYER_3, rack);
            case "rackAndPool" -> Map.of(TopologyLevels.LAYER_3, rack, POOL, "a");
            default -> throw new IllegalArgumentException(selector);
        };
        workload = List.of(new PodSetRequest("worker", pods, PlacementCluster.INSTANCE_TYPE, probe.perPod(),
                TopologyRequest.required(TopologyLevels.LAYER_3), nodeSelector));
        PlacementResult r = topology.place(workload);
        System.out.println();
        System.out.println("# " + pods + " pods, selector " + nodeSelector + ": " + (r instanceof PlacementResult.Placed p
                ? "placed on " + p.placement().podSets().get(0).podsPerNode().size() + " nodes" : r));
    }

    @Benchmark
    public PlacementResult place() {
        return topology.place(workload);
    }
}
