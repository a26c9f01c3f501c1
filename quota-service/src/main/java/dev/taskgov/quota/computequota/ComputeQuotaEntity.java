package dev.taskgov.quota.computequota;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;

import java.time.Instant;
import java.util.List;

/** One compute quota (table {@code compute_quota}); {@link #version} is its ComputeQuotaVersion. */
@Entity
@Table(name = "compute_quota")
public class ComputeQuotaEntity extends PanacheEntityBase {

    @Id
    @Column(length = 12)
    public String id;

    @Column(name = "cluster_arn", nullable = false)
    public String clusterArn;

    @Column(nullable = false)
    public String name;

    @Column(name = "team_name", nullable = false)
    public String teamName;

    @Column(nullable = false)
    public String status;

    @Column(name = "activation_state", nullable = false)
    public String activationState;

    /** ComputeQuotaVersion: 1 on create, +1 per update. */
    @Column(nullable = false)
    public int version;

    @Column(name = "request_json", nullable = false, columnDefinition = "text")
    public String requestJson;

    @Column(name = "nominal_json", nullable = false, columnDefinition = "text")
    public String nominalJson;

    /** The effective {@code AbsoluteBorrowLimits} per instance type, in stored units like {@link #nominalJson}. */
    @Column(name = "absolute_borrow_limits_json", nullable = false, columnDefinition = "text")
    public String absoluteBorrowLimitsJson;

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

    public static List<ComputeQuotaEntity> inCluster(String clusterArn) {
        return list("clusterArn", clusterArn);
    }
}
