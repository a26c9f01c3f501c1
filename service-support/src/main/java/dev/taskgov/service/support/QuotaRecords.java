package dev.taskgov.service.support;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.EventCodec;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;

import java.math.BigDecimal;
import java.util.Map;

/**
 * The records of {@code taskgov.quota}, one set per cluster: a team's effective quota in the
 * DescribeComputeQuota shape (every resource written out, so a reader needs no ratio defaults) under
 * {@link #quotaKey} {@code <ClusterArn>#<team>}, and the cluster's scheduler config in the
 * DescribeClusterSchedulerConfig shape under {@link #schedulerConfigKey} {@code <ClusterArn>#_scheduler-config}
 * ({@link ClusterScopedKey}). A deployment whose records name no cluster uses the bare keys {@code <team>}
 * and {@link #SCHEDULER_CONFIG_KEY}.
 */
public final class QuotaRecords {
    /** Key of the scheduler config record of the unnamed cluster in {@code taskgov.quota}. */
    public static final String SCHEDULER_CONFIG_KEY = ClusterScopedKey.SCHEDULER_CONFIG;

    /** The key of a team's quota in a cluster. */
    public static String quotaKey(ClusterArn cluster, String team) {
        return ClusterScopedKey.of(cluster, team);
    }

    /** The key of a cluster's scheduler config. */
    public static String schedulerConfigKey(ClusterArn cluster) {
        return ClusterScopedKey.schedulerConfig(cluster);
    }

    private QuotaRecords() {
    }

    /** A team's effective quota; translated ({@code ComputeQuotaTranslator}) and resolved ({@code ComputeQuotas.fromRequest}), it reads back to an equal {@link TeamQuota}. */
    public static ObjectNode effectiveQuota(TeamQuota q) {
        ObjectNode root = EventCodec.mapper().createObjectNode();
        root.put("Name", q.quotaName() == null ? q.team() + "-quota" : q.quotaName());
        ObjectNode config = root.putObject("ComputeQuotaConfig");
        ArrayNode resources = config.putArray("ComputeQuotaResources");
        writeResources(resources, q.nominal());
        ObjectNode sharing = config.putObject("ResourceSharingConfig");
        sharing.put("Strategy", q.strategy().name());
        if (q.strategy() == SharingStrategy.LendAndBorrow) sharing.put("BorrowLimit", q.borrowLimitPercent());
        if (!q.absoluteBorrowLimits().isEmpty()) writeResources(sharing.putArray("AbsoluteBorrowLimits"), q.absoluteBorrowLimits());
        config.put("PreemptTeamTasks", q.preemptTeamTasks().name());
        ObjectNode target = root.putObject("ComputeQuotaTarget");
        target.put("TeamName", q.team());
        target.put("FairShareWeight", q.fairShareWeight());
        root.put("ActivationState", q.active() ? "Enabled" : "Disabled");
        return root;
    }

    private static void writeResources(ArrayNode out, Map<String, Resources> byInstanceType) {
        for (Map.Entry<String, Resources> e : byInstanceType.entrySet()) {
            ObjectNode r = out.addObject();
            r.put("InstanceType", e.getKey());
            r.put("Accelerators", e.getValue().accelerators());
            r.put("VCpu", jsonUnits(ResourceName.VCPU, e.getValue().milliVcpu()));
            r.put("MemoryInGiB", jsonUnits(ResourceName.MEMORY, e.getValue().memoryMiB()));
            Map<String, Long> partitions = e.getValue().partitions();
            if (partitions.size() > 1) {
                // One entry per instance type carries one AcceleratorPartition; a quota read from the API never has more.
                throw new IllegalArgumentException("instance type " + e.getKey() + " has more than one partition type: " + partitions.keySet());
            }
            partitions.forEach((type, count) -> r.putObject("AcceleratorPartition").put("Type", type).put("Count", count));
        }
    }

    /** {@code {"SchedulerConfig": {"PriorityClasses": [{"Name", "Weight"}], "FairShare", "IdleResourceSharing"}}}. */
    public static ObjectNode schedulerConfig(SchedulerConfig c) {
        ObjectNode root = EventCodec.mapper().createObjectNode();
        ObjectNode config = root.putObject("SchedulerConfig");
        ArrayNode classes = config.putArray("PriorityClasses");
        c.priorityClasses().forEach((name, weight) -> classes.addObject().put("Name", name).put("Weight", weight));
        config.put("FairShare", c.fairShare() ? "Enabled" : "Disabled");
        config.put("IdleResourceSharing", c.idleResourceSharing() ? "Enabled" : "Disabled");
        return root;
    }

    private static BigDecimal jsonUnits(ResourceName r, long stored) {
        return new BigDecimal(Resources.formatScaled(stored, r.unitsPerJsonUnit()));
    }
}
