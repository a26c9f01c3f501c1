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
 * layer-1 for larger ones; 4,096 pods on 2,500 nodes fit no layer-1 domain, so that case measures
 * a NoFit) or preferred at layer-3 (climbing as needed).
 *
 * <ul>
 *   <li>{@code place}: the decision alone (capacities already cached for the shape).</li>
 *   <li>{@code placeReserveRelease}: a decision plus the incremental updates of admitting the
 *       workload and of its finishing.</li>
 * </ul>
 * {@link PlacementCopyBenchmark} measures the what-if copy a preemption planner takes.
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
        System.out.println();
        System.out.println("# " + nodes + " nodes, " + pods + " pods " + request.mode() + " " + request.level() + ": "
                + describe(topology.place(workload)));
    }

    private static String describe(PlacementResult r) {
        if (r instanceof PlacementResult.Placed p) {
            var ps = p.placement().podSets().get(0);
            return "placed on " + ps.podsPerNode().size() + " nodes in " + ps.domain();
        }
        return r.toString();
    }

    @Benchmark
    public PlacementResult place() {
        return topology.place(workload);
    }

    @Benchmark
    public PlacementResult placeReserveRelease() {
        PlacementResult r = topology.place(workload);
        if (r instanceof PlacementResult.Placed placed) {
            topology.reserve(workload, placed.placement());
            topology.release(workload, placed.placement());
        }
        return r;
    }
}
