package dev.taskgov.service.support;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.sim.Scenario;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The record a change of the cluster becomes on a compacted topic, as topology-service and
 * quota-service publish it: a node (or a tombstone when it leaves) on {@code taskgov.topology}, a
 * team's effective quota (or a tombstone when it is deleted) and the scheduler config on
 * {@code taskgov.quota}. Replaying a scenario through the live services, and the demo, publish
 * these for the scenario steps node, removeNode, quota, deleteQuota and schedulerConfig.
 *
 * @param topic which of the two topics
 * @param key   the node name, the team, or {@link QuotaRecords#SCHEDULER_CONFIG_KEY}, in its cluster ({@link ClusterScopedKey})
 * @param value the record value; null for a tombstone
 */
public record ClusterChangeRecords(Topic topic, String key, Object value) {

    /** The topic a change goes to. */
    public enum Topic { TOPOLOGY, QUOTA }

    /**
     * The records of a scenario's starting cluster in {@code cluster}, as quota- and topology-service publish them
     * before its steps: the scheduler config, the teams' quotas, the nodes.
     */
    public static List<ClusterChangeRecords> start(Scenario scenario, ClusterArn cluster) {
        List<Scenario.Step> changes = new ArrayList<>();
        changes.add(new Scenario.ConfigChange(-1, scenario.schedulerConfig()));
        scenario.quotas().forEach(q -> changes.add(new Scenario.QuotaChange(-1, q)));
        scenario.nodes().forEach(n -> changes.add(new Scenario.NodeChange(-1, n)));
        return changes.stream().map(c -> of(c, cluster).orElseThrow()).toList();
    }

    /** The record of a change step in the unnamed cluster (bare keys); empty for the other steps (submit, finish, expect). */
    public static Optional<ClusterChangeRecords> of(Scenario.Step step) {
        return of(step, ClusterArn.UNNAMED);
    }

    /** The record of a change step in {@code cluster}; empty for the other steps (submit, finish, expect). */
    public static Optional<ClusterChangeRecords> of(Scenario.Step step, ClusterArn cluster) {
        if (step instanceof Scenario.NodeChange n) {
            return Optional.of(new ClusterChangeRecords(Topic.TOPOLOGY, ClusterScopedKey.of(cluster, n.node().name()),
                    NodeRecord.of(n.node()).withClusterArn(cluster.orNull())));
        } else if (step instanceof Scenario.RemoveNode n) {
            return Optional.of(new ClusterChangeRecords(Topic.TOPOLOGY, ClusterScopedKey.of(cluster, n.nodeName()), null));
        } else if (step instanceof Scenario.QuotaChange q) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, QuotaRecords.quotaKey(cluster, q.quota().team()),
                    QuotaRecords.effectiveQuota(q.quota())));
        } else if (step instanceof Scenario.DeleteQuota q) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, QuotaRecords.quotaKey(cluster, q.team()), null));
        } else if (step instanceof Scenario.ConfigChange c) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, QuotaRecords.schedulerConfigKey(cluster),
                    QuotaRecords.schedulerConfig(c.config())));
        }
        return Optional.empty();
    }
}
