package dev.taskgov.admission;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.service.support.QuotaRecords;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Map;

/** Small builders for the live tests: a flat cluster of 8-accelerator nodes and one-pod workloads. */
final class Fixtures {
    static final String TYPE = "ml.p4d.24xlarge";
    static final Resources NODE = Resources.of(8, 96_000, 1_152 * 1024);

    private Fixtures() {
    }

    /** Publishes the scheduler config, one quota per team (accelerators each) and {@code nodes} nodes. */
    static void cluster(LiveCluster c, int nodes, Map<String, Long> acceleratorsByTeam) {
        c.publish(c.topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                QuotaRecords.schedulerConfig(new SchedulerConfig(Map.of("training", 50, "inference", 90), false)), false);
        acceleratorsByTeam.forEach((team, acc) -> c.publish(c.topics.quota(), team, QuotaRecords.effectiveQuota(
                TeamQuota.of(team, Map.of(TYPE, Resources.of(acc, acc * 12_000, acc * 144 * 1024)))), false));
        for (int i = 0; i < nodes; i++) {
            String name = "node-" + i;
            c.publish(c.topics.topology(), name, new NodeRecord(name, "i-" + i, TYPE, Map.of(
                    TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-" + (i / 8),
                    TopologyLevels.LAYER_3, "nn-1-" + (i / 8) + "-" + (i / 4)),
                    ResourceAmounts.of(NODE), true), true);
        }
    }

    /** One pod set of {@code pods} pods with one accelerator each. */
    static WorkloadSubmitted workload(String id, String team, int pods, Instant at) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", "training-priority",
                "PyTorchJob", at, List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(4), BigDecimal.valueOf(32)), null, null)));
    }
}
