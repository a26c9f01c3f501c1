package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.quota.QuotaLedger;
import dev.taskgov.core.topology.Node;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One governed cluster as {@code GET /clusters} shows it: its nodes, capacity (ready nodes' allocatable, the
 * quota-sum rule's bound), the sum of its teams' nominal quotas, what admitted work uses, and its workloads
 * by state. Amounts per instance type, in the units of the wire contract.
 *
 * @param clusterArn   the cluster; null for the unnamed cluster of a deployment whose records name none
 * @param capacity     per instance type, the allocatable of ready nodes
 * @param quota        per instance type, the sum of the teams' nominal quotas
 * @param used         per instance type, what admitted workloads hold
 * @param workloads    workload count per state
 */
public record ClusterSummary(String clusterArn, int nodes, int readyNodes, List<String> teams, boolean fairShare,
                             Map<String, Integer> priorityClasses, Map<String, ResourceAmounts> capacity,
                             Map<String, ResourceAmounts> quota, Map<String, ResourceAmounts> used,
                             Map<String, Long> workloads) {

    static ClusterSummary of(ClusterArn cluster, Collection<Node> nodes, QuotaLedger ledger, SchedulerConfig config,
                             Map<String, Long> workloadsByState) {
        Map<String, Resources> capacity = new TreeMap<>();
        int ready = 0;
        for (Node n : nodes) {
            if (!n.ready()) continue;
            ready++;
            capacity.merge(n.instanceType(), n.allocatable(), Resources::plus);
        }
        Map<String, Resources> quota = new TreeMap<>();
        Map<String, Resources> used = new TreeMap<>();
        List<String> teams = List.of();
        if (ledger != null) {
            teams = ledger.quotas().stream().map(TeamQuota::team).sorted().toList();
            for (TeamQuota q : ledger.quotas()) {
                q.nominal().forEach((type, r) -> quota.merge(type, r, Resources::plus));
                ledger.usage(q.team()).forEach((type, r) -> used.merge(type, r, Resources::plus));
            }
        }
        return new ClusterSummary(cluster.orNull(), nodes.size(), ready, teams, config.fairShare(),
                config.priorityClasses(), amounts(capacity), amounts(quota), amounts(used), workloadsByState);
    }

    private static Map<String, ResourceAmounts> amounts(Map<String, Resources> byType) {
        Map<String, ResourceAmounts> out = new TreeMap<>();
        byType.forEach((t, r) -> out.put(t, ResourceAmounts.full(r)));
        return out;
    }
}
