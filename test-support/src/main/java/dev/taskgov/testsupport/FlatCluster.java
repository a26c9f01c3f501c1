package dev.taskgov.testsupport;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.TopologyLevels;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/**
 * The records of a small flat cluster for the live tests of the deciders, as quota- and topology-service publish
 * them: 8-accelerator nodes of one instance type under one network node (racks of 8, blocks of 4), quotas of whole
 * accelerators, and one-pod-set workloads of one accelerator per pod.
 */
public final class FlatCluster {
    public static final String TYPE = "ml.p4d.24xlarge";
    public static final Resources NODE = Resources.of(8, 96_000, 1_152 * 1024);
    /** Classes {@code training} (50) and {@code inference} (90), fair sharing off. */
    public static final SchedulerConfig SCHEDULER_CONFIG = new SchedulerConfig(Map.of("training", 50, "inference", 90), false);

    private FlatCluster() {
    }

    /** {@code node-i}, ready or not. */
    public static NodeRecord node(int i, boolean ready) {
        String name = "node-" + i;
        return new NodeRecord(name, "i-" + i, TYPE, Map.of(
                TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-" + (i / 8),
                TopologyLevels.LAYER_3, "nn-1-" + (i / 8) + "-" + (i / 4)), ResourceAmounts.of(NODE), ready);
    }

    /** The number in a node name of {@link #node}. */
    public static int nodeIndex(String name) {
        return Integer.parseInt(name.substring("node-".length()));
    }

    /** A team's quota of {@code accelerators} with the vCPU and memory of that share of a node. */
    public static TeamQuota quota(String team, long accelerators) {
        return TeamQuota.of(team, Map.of(TYPE, Resources.of(accelerators, accelerators * 12_000, accelerators * 144 * 1024)));
    }

    /** One pod set of {@code pods} pods with one accelerator each, class {@code training}. */
    public static WorkloadSubmitted workload(String id, String team, int pods, Instant at) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", "training-priority",
                "PyTorchJob", at, List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(4), BigDecimal.valueOf(32)), null, null)));
    }
}
