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

    /** Team name and current Describe document of every quota, oldest first. */
    public List<Map.Entry<String, String>> currentDocuments() {
        return ComputeQuotaEntity.<ComputeQuotaEntity>listAll(io.quarkus.panache.common.Sort.by("createdAt")).stream()
                .map(q -> Map.entry(q.teamName, q.documentJson)).toList();
    }
}
