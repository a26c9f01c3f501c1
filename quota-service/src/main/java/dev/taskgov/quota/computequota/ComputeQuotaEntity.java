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

    /** An enabled quota's id and stored nominal amounts: what the quota-sum rule adds up. */
    public record EnabledNominal(String id, String nominalJson) {
    }

    /**
     * The cluster's enabled quotas, two columns each and no entity: every create and update adds them all up, and
     * loading (and at commit, checking) a thousand whole entities each time grew with the teams.
     */
    public static List<EnabledNominal> enabledNominals(String clusterArn, String enabled) {
        return getEntityManager().createQuery("select q.id, q.nominalJson from ComputeQuotaEntity q"
                        + " where q.clusterArn = :cluster and q.activationState = :state", Object[].class)
                .setParameter("cluster", clusterArn).setParameter("state", enabled).getResultStream()
                .map(row -> new EnabledNominal((String) row[0], (String) row[1])).toList();
    }
}
