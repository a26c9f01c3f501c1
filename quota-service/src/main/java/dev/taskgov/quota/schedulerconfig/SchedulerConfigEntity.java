package dev.taskgov.quota.schedulerconfig;

import dev.taskgov.quota.api.VersionedResourceEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

/** One cluster scheduler config (table {@code cluster_scheduler_config}); {@link #version} is its ClusterSchedulerConfigVersion. */
@Entity
@Table(name = "cluster_scheduler_config")
public class SchedulerConfigEntity extends VersionedResourceEntity {

    /** {@code SchedulerConfig.FairShare} as in effect (the API default filled in). */
    @Column(name = "fair_share", nullable = false, length = 16)
    public String fairShare;

    /** {@code SchedulerConfig.IdleResourceSharing} as in effect. */
    @Column(name = "idle_resource_sharing", nullable = false, length = 16)
    public String idleResourceSharing;
}
