package dev.taskgov.quota.schedulerconfig;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.time.Instant;

/** One cluster scheduler config (table {@code cluster_scheduler_config}). */
@Entity
@Table(name = "cluster_scheduler_config")
public class SchedulerConfigEntity extends PanacheEntityBase {

    @Id
    @Column(length = 12)
    public String id;

    @Column(name = "cluster_arn", nullable = false)
    public String clusterArn;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String status;

    /** ClusterSchedulerConfigVersion: 1 on create, +1 per update. */
    @Column(nullable = false)
    public int version;

    /** {@code SchedulerConfig.FairShare} as in effect (the API default filled in). */
    @Column(name = "fair_share", nullable = false, length = 16)
    public String fairShare;

    /** {@code SchedulerConfig.IdleResourceSharing} as in effect. */
    @Column(name = "idle_resource_sharing", nullable = false, length = 16)
    public String idleResourceSharing;

    @Column(name = "document_json", nullable = false, columnDefinition = "text")
    public String documentJson;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "last_modified_at", nullable = false)
    public Instant lastModifiedAt;

    @Version
    @Column(name = "lock_version", nullable = false)
    public long lockVersion;
}
