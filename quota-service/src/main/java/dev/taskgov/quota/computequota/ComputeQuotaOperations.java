package dev.taskgov.quota.computequota;

import dev.taskgov.core.cluster.ClusterArn;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.api.Enums.ActivationState;
import dev.taskgov.quota.api.Enums.SortOrder;
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
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

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
public class ComputeQuotaOperations extends VersionedResourceOperations<ComputeQuotaEntity> {

    private static final Set<String> CREATE_MEMBERS = Set.of("Name", "Description", "ClusterArn", "ComputeQuotaConfig",
            "ComputeQuotaTarget", "ActivationState", "Tags");
    private static final Set<String> UPDATE_MEMBERS = Set.of("ComputeQuotaId", "TargetVersion", "ComputeQuotaConfig",
            "ComputeQuotaTarget", "ActivationState", "Description");
    private static final Set<String> LIST_MEMBERS = Set.of("CreatedAfter", "CreatedBefore", "NameContains", "Status",
            "ClusterArn", "SortBy", "SortOrder", "NextToken", "MaxResults");

    @Inject
    QuotaServiceConfig config;

    @Inject
    Caller caller;

    public ComputeQuotaOperations() {
        super(VersionedResources.Kind.COMPUTE_QUOTA, ComputeQuotaEntity.class);
    }

    @Override
    @Transactional
    public ObjectNode create(JsonNode request) {
        VersionedResources.NewResource resource = VersionedResources.NewResource.of(request, CREATE_MEMBERS);
        String clusterArn = resource.clusterArn();
        RequestFields.requiredObject(request, "", "ComputeQuotaConfig");
        RequestFields.requiredObject(request, "", "ComputeQuotaTarget");
        RequestFields.optionalEnum(request, "ActivationState", ActivationState.class);
        EffectiveQuota quota = rules.fromRequest(request);

        lockForCreate(resource);
        requireNoQuotaOf(quota.team(), clusterArn);
        checkCapacity(clusterArn, null, quota);

        ComputeQuotaEntity e = versioned.created(new ComputeQuotaEntity(), resource);
        apply(e, request, quota, resource.description());
        versioned.save(e, ComputeQuotaVersionEntity.class,
                "team '" + quota.team() + "' already has a compute quota in cluster " + clusterArn);
        outbox.quotaChanged(e.clusterArn, e.teamName, e.documentJson);
        return versioned.createdResponse(kind, e);
    }

    @Override
    @Transactional
    public ObjectNode describe(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of("ComputeQuotaId", "ComputeQuotaVersion"));
        String id = RequestFields.requiredString(request, "ComputeQuotaId", RequestFields.RESOURCE_ID, 12);
        Integer version = RequestFields.optionalInt(request, "ComputeQuotaVersion", 1, Integer.MAX_VALUE);
        ComputeQuotaEntity e = find(id);
        Principal principal = Caller.principalOf(caller);
        if (!QuotaAccess.mayReadQuotaOf(principal, e.teamName)) {
            throw QuotaAccess.denied(principal, "DescribeComputeQuota", "compute quota " + id + " belongs to team '"
                    + e.teamName + "'; a team key reads only its own team's quota " + principal.teams());
        }
        Optional<ObjectNode> older = versioned.olderVersion(kind, e, version, ComputeQuotaVersionEntity.class);
        if (older.isPresent()) return older.get();
        ObjectNode document = AwsJson.parse(e.documentJson);
        String overCommit = overCommitReport(e);
        if (overCommit != null) {
            document.put("FailureReason", overCommit);
        }
        return document;
    }

    @Override
    @Transactional
    public ObjectNode update(JsonNode request) {
        RequestFields.onlyKnown(request, "", UPDATE_MEMBERS);
        String id = RequestFields.requiredString(request, "ComputeQuotaId", RequestFields.RESOURCE_ID, 12);
        int targetVersion = RequestFields.requiredInt(request, "TargetVersion", 1, Integer.MAX_VALUE);
        String description = RequestFields.optionalString(request, "Description", null, 1024);
        RequestFields.optionalObject(request, "", "ComputeQuotaConfig");
        RequestFields.optionalObject(request, "", "ComputeQuotaTarget");
        RequestFields.optionalEnum(request, "ActivationState", ActivationState.class);

        ComputeQuotaEntity e = versioned.lockedForUpdate(kind, id, this::find, targetVersion);
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
        apply(e, merged, quota, merged.hasNonNull("Description") ? merged.get("Description").asText() : description);
        versioned.save(kind, e, ComputeQuotaVersionEntity.class);
        if (!previousTeam.equals(e.teamName)) {
            outbox.quotaDeleted(e.clusterArn, previousTeam);
        }
        outbox.quotaChanged(e.clusterArn, e.teamName, e.documentJson);
        return versioned.updatedResponse(kind, e);
    }

    /** One quota per team and cluster. */
    private static void requireNoQuotaOf(String team, String clusterArn) {
        if (ComputeQuotaEntity.count("clusterArn = ?1 and teamName = ?2", clusterArn, team) > 0) {
            throw AwsApiException.conflict("ComputeQuotaTarget.TeamName: team '" + team
                    + "' already has a compute quota in cluster " + clusterArn + " (one quota per team)");
        }
    }

    @Override
    @Transactional
    public ObjectNode delete(JsonNode request) {
        ComputeQuotaEntity e = deleteNamed(request, "ComputeQuotaId", ComputeQuotaVersionEntity.class);
        outbox.quotaDeleted(e.clusterArn, e.teamName);
        return AwsJson.object();
    }

    /** The members of a stored document that its List summary shows. */
    private static final List<String> SUMMARY_MEMBERS = List.of("ComputeQuotaArn", "ComputeQuotaId", "Name", "ComputeQuotaVersion", "Status",
            "ClusterArn", "ComputeQuotaConfig", "ComputeQuotaTarget", "ActivationState", "CreationTime", "LastModifiedTime");

    @Override
    @Transactional
    public ObjectNode list(JsonNode request) {
        RequestFields.onlyKnown(request, "", LIST_MEMBERS);
        ListRequest list = ListRequest.parse(request);
        Principal principal = Caller.principalOf(caller);
        if (principal != null && !principal.mayReadAll()) {
            list = list.restrictedTo("teamName", principal.teams());
        }
        SortQuotaBy sortBy = RequestFields.optionalEnum(request, "SortBy", SortQuotaBy.class);
        String column = switch (sortBy == null ? SortQuotaBy.CreationTime : sortBy) {
            case Name -> "name";
            case CreationTime -> "createdAt";
            case Status -> "status";
            case ClusterArn -> "clusterArn";
        };
        return list.page(list.where() == null ? ComputeQuotaEntity.findAll(list.sort(column))
                : ComputeQuotaEntity.find(list.where(), list.sort(column), list.params()), "ComputeQuotaSummaries", SUMMARY_MEMBERS);
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
        List<Map<String, Resources>> out = ComputeQuotaEntity.inCluster(clusterArn).stream()
                .filter(q -> !q.id.equals(replacedId))
                .filter(q -> ActivationState.Enabled.name().equals(q.activationState))
                .map(q -> ComputeQuotaDocuments.readNominal(q.nominalJson))
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
