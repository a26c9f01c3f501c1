package dev.taskgov.quota.computequota;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.Enums.ActivationState;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Map;

/** Read-only views of the stored compute quotas for metrics and republishing (call inside a transaction). */
@ApplicationScoped
public class ComputeQuotaReadModel {

    /** An enabled quota's nominal amounts. */
    public record ActiveQuota(String clusterArn, String team, Map<String, Resources> nominal) {
    }

    /** Three columns per quota, not whole entities: the metrics read them after every change, a thousand teams or more. */
    public List<ActiveQuota> activeQuotas() {
        return ComputeQuotaEntity.getEntityManager().createQuery("select q.clusterArn, q.teamName, q.nominalJson"
                        + " from ComputeQuotaEntity q where q.activationState = :state", Object[].class)
                .setParameter("state", ActivationState.Enabled.name()).getResultStream()
                .map(row -> new ActiveQuota((String) row[0], (String) row[1], ComputeQuotaDocuments.readNominal((String) row[2])))
                .toList();
    }

    /** A quota's current Describe document, with its cluster and team (its key on the quota topic). */
    public record CurrentDocument(String clusterArn, String team, String documentJson) {
    }

    /** The current Describe document of every quota, oldest first. */
    public List<CurrentDocument> currentDocuments() {
        return ComputeQuotaEntity.<ComputeQuotaEntity>listAll(io.quarkus.panache.common.Sort.by("createdAt")).stream()
                .map(q -> new CurrentDocument(q.clusterArn, q.teamName, q.documentJson)).toList();
    }
}
