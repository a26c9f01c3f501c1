package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.ComputeQuotaRequest;
import dev.taskgov.core.model.SchedulerConfig;

/** What one {@code taskgov.quota} record says ({@link QuotaRecordTranslator}); each changes only its own cluster. */
public sealed interface QuotaChange {

    ClusterArn cluster();

    /** A team's quota, created or changed (key {@code <ClusterArn>#<team>}). */
    record QuotaSet(ClusterArn cluster, String team, ComputeQuotaRequest request) implements QuotaChange {
    }

    /** A team's quota deleted (its tombstone). */
    record QuotaRemoved(ClusterArn cluster, String team) implements QuotaChange {
    }

    /**
     * The cluster's scheduler config (key {@code <ClusterArn>#_scheduler-config}); its tombstone is
     * {@link SchedulerConfig#DEFAULT}, the config of a cluster without one.
     */
    record SchedulerConfigSet(ClusterArn cluster, SchedulerConfig config) implements QuotaChange {
    }
}
