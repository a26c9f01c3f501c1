package dev.taskgov.service.support;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.sim.Scenario;

import java.util.Optional;

/**
 * The record a change of the cluster becomes on a compacted topic, as topology-service and
 * quota-service publish it: a node (or a tombstone when it leaves) on {@code taskgov.topology}, a
 * team's effective quota (or a tombstone when it is deleted) and the scheduler config on
 * {@code taskgov.quota}. Replaying a scenario through the live services, and the demo, publish
 * these for the scenario steps node, removeNode, quota, deleteQuota and schedulerConfig.
 *
 * @param topic which of the two topics
 * @param key   the node name, the team, or {@link QuotaRecords#SCHEDULER_CONFIG_KEY}
 * @param value the record value; null for a tombstone
 */
public record ClusterChangeRecords(Topic topic, String key, Object value) {

    /** The topic a change goes to. */
    public enum Topic { TOPOLOGY, QUOTA }

    /** The record of a change step; empty for the other steps (submit, finish, expect). */
    public static Optional<ClusterChangeRecords> of(Scenario.Step step) {
        if (step instanceof Scenario.NodeChange n) {
            return Optional.of(new ClusterChangeRecords(Topic.TOPOLOGY, n.node().name(), NodeRecord.of(n.node())));
        } else if (step instanceof Scenario.RemoveNode n) {
            return Optional.of(new ClusterChangeRecords(Topic.TOPOLOGY, n.nodeName(), null));
        } else if (step instanceof Scenario.QuotaChange q) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, q.quota().team(), QuotaRecords.effectiveQuota(q.quota())));
        } else if (step instanceof Scenario.DeleteQuota q) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, q.team(), null));
        } else if (step instanceof Scenario.ConfigChange c) {
            return Optional.of(new ClusterChangeRecords(Topic.QUOTA, QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(c.config())));
        }
        return Optional.empty();
    }
}
