package dev.taskgov.quota.computequota;

import dev.taskgov.core.cluster.ClusterArn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.api.Enums.ActivationState;
import dev.taskgov.quota.api.Enums.SortQuotaBy;
import dev.taskgov.quota.api.ListRequest;
import dev.taskgov.quota.api.RequestFields;
import dev.taskgov.quota.api.VersionedResourceOperations;
import dev.taskgov.quota.api.VersionedResources;
import dev.taskgov.quota.auth.Caller;
import dev.taskgov.quota.auth.QuotaAccess;
import dev.taskgov.core.auth.Principal;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.quota.rules.EffectiveQuota;
import dev.taskgov.service.support.QuotaRecords;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * {@code CreateComputeQuota}, {@code DescribeComputeQuota}, {@code UpdateComputeQuota},
 * {@code DeleteComputeQuota} and {@code ListComputeQuotas}. Every change runs in one transaction through
 * {@link VersionedResources} (the cluster's lock, so the capacity sum is checked against committed quotas only; the
 * row read again; the version rule), then the row, its version document, and the outbox record for the quota topic.
 */
@ApplicationScoped
public class ComputeQuotaOperations extends VersionedResourceOperations<ComputeQuotaEntity, SortQuotaBy> {

    private static final Members MEMBERS = new Members(
            Set.of("Name", "Description", "ClusterArn", "ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState", "Tags"),
            Set.of("ComputeQuotaId", "TargetVersion", "ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState", "Description"),
            List.of("ComputeQuotaArn", "ComputeQuotaId", "Name", "ComputeQuotaVersion", "Status", "ClusterArn",
                    "ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState", "CreationTime", "LastModifiedTime"));

    @Inject
    QuotaServiceConfig config;

    @Inject
    Caller caller;

    public ComputeQuotaOperations() {
        super(VersionedResources.Kind.COMPUTE_QUOTA, ComputeQuotaEntity.class, ComputeQuotaVersionEntity.class,
                SortQuotaBy.class, MEMBERS);
    }

    @Override
    protected ComputeQuotaEntity create(VersionedResources.NewResource resource, JsonNode request) {
        RequestFields.requiredObject(request, "", "ComputeQuotaConfig");
        RequestFields.requiredObject(request, "", "ComputeQuotaTarget");
        RequestFields.optionalEnum(request, "ActivationState", ActivationState.class);
        EffectiveQuota quota = rules.fromRequest(request);

        lockForCreate(resource);
        requireNoQuotaOf(quota.team(), resource.clusterArn());
        checkCapacity(resource.clusterArn(), null, quota);

        ComputeQuotaEntity e = versioned.created(new ComputeQuotaEntity(), resource);
        apply(e, request, quota, resource.description());
        versioned.save(e, versions, "team '" + quota.team() + "' already has a compute quota in cluster " + resource.clusterArn());
        return e;
    }

    /** A team key reads only its own team's quota; the current document tells an over-commit of the cluster. */
    @Override
    protected ObjectNode describe(ComputeQuotaEntity e, Integer version) {
        Principal principal = Caller.principalOf(caller);
        if (!QuotaAccess.mayReadQuotaOf(principal, e.teamName)) {
            throw QuotaAccess.denied(principal, "DescribeComputeQuota", "compute quota " + e.id + " belongs to team '"
                    + e.teamName + "'; a team key reads only its own team's quota " + principal.teams());
        }
        Optional<ObjectNode> older = versioned.olderVersion(kind, e, version, versions);
        if (older.isPresent()) return older.get();
        ObjectNode document = AwsJson.parse(e.documentJson);
        String overCommit = overCommitReport(e);
        if (overCommit != null) {
            document.put("FailureReason", overCommit);
        }
        return document;
    }

    /** Unspecified members keep their values; a quota moved to another team leaves a tombstone of the previous team's. */
    @Override
    protected ComputeQuotaEntity update(VersionedResources.Change change, JsonNode request) {
        RequestFields.optionalObject(request, "", "ComputeQuotaConfig");
        RequestFields.optionalObject(request, "", "ComputeQuotaTarget");
        RequestFields.optionalEnum(request, "ActivationState", ActivationState.class);

        ComputeQuotaEntity e = versioned.lockedForUpdate(kind, change.id(), this::find, change.targetVersion());
        ObjectNode merged = AwsJson.parse(e.requestJson);
        for (String member : List.of("ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState", "Description")) {
            if (request.hasNonNull(member)) {
                merged.set(member, request.get(member));
            }
        }
        EffectiveQuota quota = rules.fromRequest(merged);
        String previousTeam = e.teamName;
        if (!quota.team().equals(previousTeam)) {
            requireNoQuotaOf(quota.team(), e.clusterArn);
        }
        checkCapacity(e.clusterArn, e.id, quota);

        versioned.updated(e);
        apply(e, merged, quota, merged.hasNonNull("Description") ? merged.get("Description").asText() : change.description());
        versioned.save(kind, e, versions);
        if (!previousTeam.equals(e.teamName)) {
            outbox.quotaDeleted(e.clusterArn, previousTeam);
        }
        return e;
    }

    /** One quota per team and cluster. */
    private static void requireNoQuotaOf(String team, String clusterArn) {
        if (ComputeQuotaEntity.count("clusterArn = ?1 and teamName = ?2", clusterArn, team) > 0) {
            throw AwsApiException.conflict("ComputeQuotaTarget.TeamName: team '" + team
                    + "' already has a compute quota in cluster " + clusterArn + " (one quota per team)");
        }
    }

    /** A team key lists only its own team's quotas. */
    @Override
    protected PanacheQuery<ComputeQuotaEntity> rows(ListRequest list, Sort sort) {
        Principal principal = Caller.principalOf(caller);
        ListRequest visible = principal == null || principal.mayReadAll() ? list : list.restrictedTo("teamName", principal.teams());
        return visible.where() == null ? ComputeQuotaEntity.findAll(sort) : ComputeQuotaEntity.find(visible.where(), sort, visible.params());
    }

    @Override
    protected String recordKey(ComputeQuotaEntity e) {
        return QuotaRecords.quotaKey(ClusterArn.of(e.clusterArn), e.teamName);
    }

    /**
     * The over-commit of this quota's instance types when the cluster shrank below the sum of the
     * quotas (null when none): reported, never acted on.
     */
    String overCommitReport(ComputeQuotaEntity e) {
        if (!ActivationState.Enabled.name().equals(e.activationState)) {
            return null;
        }
        Set<String> types = ComputeQuotaDocuments.readNominal(e.nominalJson).keySet();
        capacity.requireComplete("FailureReason", "whether the quotas of cluster " + e.clusterArn + " exceed its capacity");
        List<String> reports = rules.capacityViolations(activeNominals(e.clusterArn, null, null),
                capacity.capacityByInstanceType(ClusterArn.of(e.clusterArn)), types);
        return reports.isEmpty() ? null : "over-committed: " + String.join("; ", reports);
    }

    /** What the quota-sum rule checks. */
    private static final String CAPACITY_FIELD = "ComputeQuotaConfig.ComputeQuotaResources";

    private void checkCapacity(String clusterArn, String replacedId, EffectiveQuota candidate) {
        if (!config.quota().enforceCapacity() || !candidate.active()) {
            return;
        }
        capacity.requireComplete(CAPACITY_FIELD, "whether the quotas of cluster " + clusterArn + " fit its capacity");
        List<String> violations = rules.capacityViolations(activeNominals(clusterArn, replacedId, candidate.nominal()),
                capacity.capacityByInstanceType(ClusterArn.of(clusterArn)), candidate.nominal().keySet());
        if (!violations.isEmpty()) {
            throw AwsApiException.validation(CAPACITY_FIELD + ": " + String.join("; ", violations)
                    + " (the quotas of a cluster must not sum to more than its ready nodes' allocatable)");
        }
    }

    /** The nominal quotas of the cluster's active quotas, one replaced (or added) by {@code candidate}. */
    private List<Map<String, Resources>> activeNominals(String clusterArn, String replacedId,
                                                        Map<String, Resources> candidate) {
        List<Map<String, Resources>> out = ComputeQuotaEntity.enabledNominals(clusterArn, ActivationState.Enabled.name()).stream()
                .filter(q -> !q.id().equals(replacedId))
                .map(q -> ComputeQuotaDocuments.readNominal(q.nominalJson()))
                .collect(Collectors.toCollection(ArrayList::new));
        if (candidate != null) {
            out.add(candidate);
        }
        return out;
    }

    /** The quota's own fields and its document, after {@link VersionedResources#created} or {@code updated}. */
    private void apply(ComputeQuotaEntity e, JsonNode request, EffectiveQuota quota, String description) {
        ObjectNode stored = AwsJson.object();
        for (String member : List.of("ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState")) {
            if (request.hasNonNull(member)) {
                stored.set(member, request.get(member));
            }
        }
        if (description != null) {
            stored.put("Description", description);
        }
        e.teamName = quota.team();
        e.activationState = quota.active() ? ActivationState.Enabled.name() : ActivationState.Disabled.name();
        e.requestJson = AwsJson.write(stored);
        e.nominalJson = ComputeQuotaDocuments.writeStoredAmounts(quota.nominal());
        e.absoluteBorrowLimitsJson = ComputeQuotaDocuments.writeStoredAmounts(quota.absoluteBorrowLimits());
        e.documentJson = AwsJson.write(ComputeQuotaDocuments.describe(e, arn(e.id), description, stored, quota));
    }
}
