package dev.taskgov.quota.schedulerconfig;

import dev.taskgov.quota.auth.Caller;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.api.Enums.SortClusterSchedulerConfigBy;
import dev.taskgov.quota.api.Enums.SortOrder;
import dev.taskgov.quota.api.Enums.Status;
import dev.taskgov.quota.api.Ids;
import dev.taskgov.quota.api.Operation;
import dev.taskgov.quota.api.OperationRegistry;
import dev.taskgov.quota.api.ListRequest;
import dev.taskgov.quota.api.RequestFields;
import dev.taskgov.quota.api.VersionedResources;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.quota.rules.QuotaRules;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The five ClusterSchedulerConfig operations. A cluster has one scheduler config (its cluster
 * policy); every change runs in one transaction with its version document and outbox record.
 */
@ApplicationScoped
public class SchedulerConfigOperations implements OperationRegistry {

    private static final VersionedResources.Kind KIND = VersionedResources.Kind.SCHEDULER_CONFIG;

    private static final Set<String> CREATE_MEMBERS = Set.of("Name", "ClusterArn", "SchedulerConfig", "Description", "Tags");
    private static final Set<String> UPDATE_MEMBERS = Set.of("ClusterSchedulerConfigId", "TargetVersion",
            "SchedulerConfig", "Description");
    private static final Set<String> LIST_MEMBERS = Set.of("CreatedAfter", "CreatedBefore", "NameContains", "ClusterArn",
            "Status", "SortBy", "SortOrder", "NextToken", "MaxResults");

    @Inject
    QuotaRules rules;

    @Inject
    dev.taskgov.quota.capacity.ClusterCapacity capacity;

    @Inject
    QuotaTopicOutbox outbox;

    @Inject
    VersionedResources versioned;

    @Inject
    Caller caller;

    @Override
    public Map<String, Operation> operations() {
        Map<String, Operation> ops = new LinkedHashMap<>();
        ops.put("CreateClusterSchedulerConfig", this::create);
        ops.put("DescribeClusterSchedulerConfig", this::describe);
        ops.put("UpdateClusterSchedulerConfig", this::update);
        ops.put("DeleteClusterSchedulerConfig", this::delete);
        ops.put("ListClusterSchedulerConfigs", this::list);
        return ops;
    }

    @Transactional
    public ObjectNode create(JsonNode request) {
        RequestFields.onlyKnown(request, "", CREATE_MEMBERS);
        String name = RequestFields.requiredString(request, "Name", RequestFields.RESOURCE_NAME, 63);
        String clusterArn = RequestFields.requiredString(request, "ClusterArn", RequestFields.CLUSTER_ARN, 256);
        String description = RequestFields.optionalString(request, "Description", null, 1024);
        JsonNode requested = RequestFields.requiredObject(request, "", "SchedulerConfig");
        ObjectNode effective = rules.schedulerConfig(requested, "SchedulerConfig");

        // after the request's own rules, so a bad request names all its broken fields first
        capacity.requireGoverned(clusterArn);
        versioned.lockCluster(KIND, clusterArn);
        SchedulerConfigEntity existing = SchedulerConfigEntity.find("clusterArn", clusterArn).firstResult();
        if (existing != null) {
            throw AwsApiException.conflict("ClusterArn: cluster " + clusterArn
                    + " already has a cluster scheduler config (" + existing.id + "); update it instead");
        }
        Instant now = versioned.now();
        SchedulerConfigEntity e = new SchedulerConfigEntity();
        e.id = Ids.newId();
        e.clusterArn = clusterArn;
        e.name = name;
        e.createdAt = now;
        e.version = 1;
        apply(e, effective, description, Status.Created, now);
        e.persist();
        SchedulerConfigVersionEntity.of(e.id, e.version, e.documentJson, Caller.nameOf(caller)).persist();
        versioned.flush("cluster " + clusterArn + " already has a cluster scheduler config");
        outbox.schedulerConfigChanged(e.clusterArn, e.documentJson);

        ObjectNode response = AwsJson.object();
        response.put("ClusterSchedulerConfigArn", arn(e.id));
        response.put("ClusterSchedulerConfigId", e.id);
        return response;
    }

    @Transactional
    public ObjectNode describe(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of("ClusterSchedulerConfigId", "ClusterSchedulerConfigVersion"));
        String id = RequestFields.requiredString(request, "ClusterSchedulerConfigId", RequestFields.RESOURCE_ID, 12);
        Integer version = RequestFields.optionalInt(request, "ClusterSchedulerConfigVersion", 1, Integer.MAX_VALUE);
        SchedulerConfigEntity e = find(id);
        return versioned.olderVersion(KIND, id, e.version, version,
                v -> SchedulerConfigVersionEntity.find(id, v).map(stored -> stored.documentJson))
                .orElseGet(() -> AwsJson.parse(e.documentJson));
    }

    @Transactional
    public ObjectNode update(JsonNode request) {
        RequestFields.onlyKnown(request, "", UPDATE_MEMBERS);
        String id = RequestFields.requiredString(request, "ClusterSchedulerConfigId", RequestFields.RESOURCE_ID, 12);
        int targetVersion = RequestFields.requiredInt(request, "TargetVersion", 1, Integer.MAX_VALUE);
        String description = RequestFields.optionalString(request, "Description", null, 1024);
        JsonNode requested = RequestFields.optionalObject(request, "", "SchedulerConfig");
        ObjectNode effective = requested == null ? null : rules.schedulerConfig(requested, "SchedulerConfig");

        SchedulerConfigEntity e = versioned.lockedForChange(KIND, id, this::find, c -> c.clusterArn);
        versioned.requireVersion(KIND, id, e.version, targetVersion);
        ObjectNode current = AwsJson.parse(e.documentJson);
        if (effective == null) {
            effective = (ObjectNode) current.get("SchedulerConfig");
        }
        if (description == null && current.hasNonNull("Description")) {
            description = current.get("Description").asText();
        }
        e.version = e.version + 1;
        apply(e, effective, description, Status.Updated, versioned.now());
        SchedulerConfigVersionEntity.of(e.id, e.version, e.documentJson, Caller.nameOf(caller)).persist();
        versioned.flush("cluster scheduler config " + id + " was changed concurrently");
        outbox.schedulerConfigChanged(e.clusterArn, e.documentJson);

        ObjectNode response = AwsJson.object();
        response.put("ClusterSchedulerConfigArn", arn(e.id));
        response.put("ClusterSchedulerConfigVersion", e.version);
        return response;
    }

    @Transactional
    public ObjectNode delete(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of("ClusterSchedulerConfigId"));
        String id = RequestFields.requiredString(request, "ClusterSchedulerConfigId", RequestFields.RESOURCE_ID, 12);
        SchedulerConfigEntity e = versioned.lockedForChange(KIND, id, this::find, c -> c.clusterArn);
        SchedulerConfigVersionEntity.delete("configId", id);
        e.delete();
        versioned.flush("cluster scheduler config " + id + " was changed concurrently");
        outbox.schedulerConfigDeleted(e.clusterArn);
        return AwsJson.object();
    }

    /** The members of a stored document that its List summary shows. */
    private static final List<String> SUMMARY_MEMBERS = List.of("ClusterSchedulerConfigArn", "ClusterSchedulerConfigId",
            "ClusterSchedulerConfigVersion", "Name", "CreationTime", "LastModifiedTime", "Status", "ClusterArn");

    @Transactional
    public ObjectNode list(JsonNode request) {
        RequestFields.onlyKnown(request, "", LIST_MEMBERS);
        ListRequest list = ListRequest.parse(request);
        SortClusterSchedulerConfigBy sortBy = RequestFields.optionalEnum(request, "SortBy", SortClusterSchedulerConfigBy.class);
        String column = switch (sortBy == null ? SortClusterSchedulerConfigBy.CreationTime : sortBy) {
            case Name -> "name";
            case CreationTime -> "createdAt";
            case Status -> "status";
        };
        var query = list.where() == null ? SchedulerConfigEntity.<SchedulerConfigEntity>findAll(list.sort(column))
                : SchedulerConfigEntity.<SchedulerConfigEntity>find(list.where(), list.sort(column), list.params());
        long total = query.count();
        List<SchedulerConfigEntity> page = query.range(list.paging().offset(), list.paging().offset() + list.paging().maxResults() - 1).list();
        return list.response("ClusterSchedulerConfigSummaries", page.stream().map(e -> e.documentJson).toList(), SUMMARY_MEMBERS, total);
    }

    private void apply(SchedulerConfigEntity e, ObjectNode effective, String description, Status status, Instant now) {
        e.status = status.name();
        e.lastModifiedAt = now;
        e.fairShare = effective.path("FairShare").asText();
        e.idleResourceSharing = effective.path("IdleResourceSharing").asText();
        ObjectNode d = AwsJson.object();
        d.put("ClusterSchedulerConfigArn", arn(e.id));
        d.put("ClusterSchedulerConfigId", e.id);
        d.put("Name", e.name);
        d.put("ClusterSchedulerConfigVersion", e.version);
        d.put("Status", e.status);
        d.put("ClusterArn", e.clusterArn);
        d.set("SchedulerConfig", effective);
        if (description != null) {
            d.put("Description", description);
        }
        d.put("CreationTime", AwsJson.epochSeconds(e.createdAt));
        d.put("LastModifiedTime", AwsJson.epochSeconds(e.lastModifiedAt));
        e.documentJson = AwsJson.write(d);
    }

    private SchedulerConfigEntity find(String id) {
        SchedulerConfigEntity e = SchedulerConfigEntity.findById(id);
        if (e == null) {
            throw AwsApiException.notFound("ClusterSchedulerConfigId: cluster scheduler config " + id + " does not exist");
        }
        return e;
    }

    private String arn(String id) {
        return versioned.arn(KIND, id);
    }
}
