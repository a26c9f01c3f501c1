package dev.taskgov.quota.api;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Id;
import jakarta.persistence.MappedSuperclass;
import jakarta.persistence.Version;

import java.time.Instant;

/**
 * The columns every versioned SageMaker resource's table has (a compute quota, a cluster scheduler config), which
 * {@link VersionedResources} reads and writes for both.
 */
@MappedSuperclass
public abstract class VersionedResourceEntity extends PanacheEntityBase {

    @Id
    @Column(length = 12)
    public String id;

    @Column(name = "cluster_arn", nullable = false)
    public String clusterArn;

    @Column(nullable = false)
    public String name;

    @Column(nullable = false)
    public String status;

    /** The resource's version (ComputeQuotaVersion, ClusterSchedulerConfigVersion): 1 on create, +1 per update. */
    @Column(nullable = false)
    public int version;

    /** The Describe document of the current version. */
    @Column(name = "document_json", nullable = false, columnDefinition = "text")
    public String documentJson;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "last_modified_at", nullable = false)
    public Instant lastModifiedAt;

    /** Optimistic lock: a concurrent writer that slipped past the TargetVersion check fails at commit. */
    @Version
    @Column(name = "lock_version", nullable = false)
    public long lockVersion;
}
