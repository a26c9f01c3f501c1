package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.testsupport.FlatCluster;

import java.time.Instant;
import java.util.Map;

/** The live tests' small flat cluster ({@link FlatCluster}) published on a {@link LiveCluster}'s topics. */
final class Fixtures {
    static final String TYPE = FlatCluster.TYPE;
    static final Resources NODE = FlatCluster.NODE;

    private Fixtures() {
    }

    /** Publishes the scheduler config, one quota per team (accelerators each) and {@code nodes} nodes. */
    static void cluster(LiveCluster c, int nodes, Map<String, Long> acceleratorsByTeam) {
        c.publish(c.topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(FlatCluster.SCHEDULER_CONFIG), false);
        acceleratorsByTeam.forEach((team, acc) -> c.publish(c.topics.quota(), team,
                QuotaRecords.effectiveQuota(FlatCluster.quota(team, acc)), false));
        for (int i = 0; i < nodes; i++) c.publish(c.topics.topology(), "node-" + i, FlatCluster.node(i, true), true);
    }

    /** One pod set of {@code pods} pods with one accelerator each. */
    static WorkloadSubmitted workload(String id, String team, int pods, Instant at) {
        return FlatCluster.workload(id, team, pods, at);
    }
}
