package dev.taskgov.benchmarks;

import dev.taskgov.core.topology.PlacementResult;
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
 * The independent copy of a topology that a preemption planner takes per attempt, on the
 * {@link PlacementCluster} (one pod shape's capacities cached, as after a placement).
 */
@State(Scope.Benchmark)
@Fork(1)
public class PlacementCopyBenchmark {

    @Param({"10000", "2500"})
    public int nodes;

    private Topology topology;

    @Setup(Level.Trial)
    public void setUp() {
        topology = PlacementCluster.halfUsed(nodes, 20261130L);
        if (!(topology.place(List.of(PlacementCluster.podSet(8, TopologyRequest.preferred(TopologyLevels.LAYER_3))))
                instanceof PlacementResult.Placed)) {
            throw new IllegalStateException("8 pods do not fit");
        }
    }

    @Benchmark
    public Topology copy() {
        return topology.copy();
    }
}
