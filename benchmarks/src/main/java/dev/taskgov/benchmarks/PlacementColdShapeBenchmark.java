package dev.taskgov.benchmarks;

import dev.taskgov.core.resources.Resources;
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
import java.util.List;

/**
 * The worst case of the capacity cache: every placement asks for a pod shape that is not cached
 * (2,048 shapes in rotation, more than the cache keeps for any tree). With {@code vcpu=limit} each shape's vCPU is
 * what a node runs short of before its accelerators, so each decision first sums the shape's capacity over the nodes
 * with a free accelerator; with {@code vcpu=room} no node runs short of it, and the shapes share the count of one
 * accelerator alone. 512 pods, preferred layer-3.
 */
@State(Scope.Benchmark)
@Fork(1)
public class PlacementColdShapeBenchmark {

    private static final int SHAPES = 2048;

    @Param({"10000", "2500"})
    public int nodes;

    /** {@code limit}: a free node (8 accelerators, 192 vCPU) fits 7 pods of a shape, not 8; {@code room}: 8. */
    @Param({"limit", "room"})
    public String vcpu;

    private Topology topology;
    private final List<List<PodSetRequest>> workloads = new ArrayList<>();
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        topology = PlacementCluster.halfUsed(nodes, 20261130L);
        long base = vcpu.equals("limit") ? 24_001 : 1_000;
        for (int i = 0; i < SHAPES; i++) {
            Resources perPod = Resources.of(1, base + i, 0); // milli-vCPU that differ per shape
            workloads.add(List.of(new PodSetRequest("worker", 512, PlacementCluster.INSTANCE_TYPE, perPod,
                    TopologyRequest.preferred(TopologyLevels.LAYER_3))));
        }
    }

    @Benchmark
    public PlacementResult placeUncachedShape() {
        next = (next + 1) % SHAPES;
        return topology.place(workloads.get(next));
    }
}
