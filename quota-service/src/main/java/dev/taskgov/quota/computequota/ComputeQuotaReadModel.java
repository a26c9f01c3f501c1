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

    public List<ActiveQuota> activeQuotas() {
        return ComputeQuotaEntity.<ComputeQuotaEntity>list("activationState", ActivationState.Enabled.name()).stream()
                .map(q -> new ActiveQuota(q.clusterArn, q.teamName, ComputeQuotaDocuments.readNominal(q.nominalJson)))
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
