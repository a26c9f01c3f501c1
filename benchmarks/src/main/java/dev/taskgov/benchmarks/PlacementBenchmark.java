package dev.taskgov.benchmarks;

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

import java.util.List;

/**
 * Topology placement on a large cluster (see {@link PlacementCluster}): one pod set of 1-GPU pods,
 * either required at the narrowest level where it can fit (layer-3 for small ones, layer-2 or
 * layer-1 for larger ones) or preferred at layer-3 (climbing as needed).
 *
 * <ul>
 *   <li>{@code place}: the decision alone (capacities already cached for the shape).</li>
 *   <li>{@code placeReserveRelease}: a decision plus the incremental updates of admitting the
 *       workload and of its finishing.</li>
 *   <li>{@code copy}: the what-if copy a preemption planner takes.</li>
 * </ul>
 */
@State(Scope.Benchmark)
@Fork(1)
public class PlacementBenchmark {

    @Param({"10000", "2500"})
    public int nodes;

    @Param({"8", "64", "512", "4096"})
    public int pods;

    @Param({"required", "preferred"})
    public String mode;

    private Topology topology;
    private List<PodSetRequest> workload;

    @Setup(Level.Trial)
    public void setUp() {
        topology = PlacementCluster.halfUsed(nodes, 20261130L);
        TopologyRequest request = mode.equals("required")
                ? TopologyRequest.required(PlacementCluster.narrowestFittingLevel(topology, pods))
                : TopologyRequest.preferred(TopologyLevels.LAYER_3);
        workload = List.of(PlacementCluster.podSet(pods, request));
        if (!(topology.place(workload) instanceof PlacementResult.Placed)) {
            throw new IllegalStateException(pods + " pods " + mode + " do not fit on " + nodes + " nodes");
        }
    }

    @Benchmark
    public PlacementResult place() {
        return topology.place(workload);
    }

    @Benchmark
    public PlacementResult placeReserveRelease() {
        PlacementResult r = topology.place(workload);
        PlacementResult.Placed placed = (PlacementResult.Placed) r;
        topology.reserve(workload, placed.placement());
        topology.release(workload, placed.placement());
        return r;
    }

    @Benchmark
    public Topology copy() {
        return topology.copy();
    }
}
