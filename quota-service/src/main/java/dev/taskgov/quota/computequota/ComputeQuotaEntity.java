package dev.taskgov.quota.computequota;

import dev.taskgov.quota.api.VersionedResourceEntity;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Table;

import java.util.List;

/** One compute quota (table {@code compute_quota}); {@link #version} is its ComputeQuotaVersion. */
@Entity
@Table(name = "compute_quota")
public class ComputeQuotaEntity extends VersionedResourceEntity {

    @Column(name = "team_name", nullable = false)
    public String teamName;

    @Column(name = "activation_state", nullable = false)
    public String activationState;

    @Column(name = "request_json", nullable = false, columnDefinition = "text")
    public String requestJson;

    @Column(name = "nominal_json", nullable = false, columnDefinition = "text")
    public String nominalJson;

    /** The effective {@code AbsoluteBorrowLimits} per instance type, in stored units like {@link #nominalJson}. */
    @Column(name = "absolute_borrow_limits_json", nullable = false, columnDefinition = "text")
    public String absoluteBorrowLimitsJson;

    public static List<ComputeQuotaEntity> inCluster(String clusterArn) {
        return list("clusterArn", clusterArn);
    }
}
