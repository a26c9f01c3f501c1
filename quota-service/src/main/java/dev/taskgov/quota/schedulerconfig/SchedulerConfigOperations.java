package dev.taskgov.quota.schedulerconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.api.Enums.SortClusterSchedulerConfigBy;
import dev.taskgov.quota.api.Enums.SortOrder;
import dev.taskgov.quota.api.ListRequest;
import dev.taskgov.quota.api.RequestFields;
import dev.taskgov.quota.api.VersionedResourceOperations;
import dev.taskgov.quota.api.VersionedResources;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Set;

/**
 * The five ClusterSchedulerConfig operations. A cluster has one scheduler config (its cluster
 * policy); every change runs in one transaction through {@link VersionedResources} (the cluster's lock, the row read
 * again, the version rule), then the row, its version document, and the outbox record for the quota topic.
 */
@ApplicationScoped
public class SchedulerConfigOperations extends VersionedResourceOperations<SchedulerConfigEntity> {

    private static final Set<String> CREATE_MEMBERS = Set.of("Name", "ClusterArn", "SchedulerConfig", "Description", "Tags");
    private static final Set<String> UPDATE_MEMBERS = Set.of("ClusterSchedulerConfigId", "TargetVersion",
            "SchedulerConfig", "Description");
    private static final Set<String> LIST_MEMBERS = Set.of("CreatedAfter", "CreatedBefore", "NameContains", "ClusterArn",
            "Status", "SortBy", "SortOrder", "NextToken", "MaxResults");

    public SchedulerConfigOperations() {
        super(VersionedResources.Kind.SCHEDULER_CONFIG, SchedulerConfigEntity.class);
    }

    @Override
    @Transactional
    public ObjectNode create(JsonNode request) {
        VersionedResources.NewResource resource = VersionedResources.NewResource.of(request, CREATE_MEMBERS);
        String clusterArn = resource.clusterArn();
        JsonNode requested = RequestFields.requiredObject(request, "", "SchedulerConfig");
        ObjectNode effective = rules.schedulerConfig(requested, "SchedulerConfig");

        lockForCreate(resource);
        SchedulerConfigEntity existing = SchedulerConfigEntity.find("clusterArn", clusterArn).firstResult();
        if (existing != null) {
            throw AwsApiException.conflict("ClusterArn: cluster " + clusterArn
                    + " already has a cluster scheduler config (" + existing.id + "); update it instead");
        }
        SchedulerConfigEntity e = versioned.created(new SchedulerConfigEntity(), resource);
        apply(e, effective, resource.description());
        versioned.save(e, SchedulerConfigVersionEntity.class, "cluster " + clusterArn + " already has a cluster scheduler config");
        outbox.schedulerConfigChanged(e.clusterArn, e.documentJson);
        return versioned.createdResponse(kind, e);
    }

    @Override
    @Transactional
    public ObjectNode describe(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of("ClusterSchedulerConfigId", "ClusterSchedulerConfigVersion"));
        String id = RequestFields.requiredString(request, "ClusterSchedulerConfigId", RequestFields.RESOURCE_ID, 12);
        Integer version = RequestFields.optionalInt(request, "ClusterSchedulerConfigVersion", 1, Integer.MAX_VALUE);
        return versioned.describe(kind, find(id), version, SchedulerConfigVersionEntity.class);
    }

    @Override
    @Transactional
    public ObjectNode update(JsonNode request) {
        RequestFields.onlyKnown(request, "", UPDATE_MEMBERS);
        String id = RequestFields.requiredString(request, "ClusterSchedulerConfigId", RequestFields.RESOURCE_ID, 12);
        int targetVersion = RequestFields.requiredInt(request, "TargetVersion", 1, Integer.MAX_VALUE);
        String description = RequestFields.optionalString(request, "Description", null, 1024);
        JsonNode requested = RequestFields.optionalObject(request, "", "SchedulerConfig");
        ObjectNode effective = requested == null ? null : rules.schedulerConfig(requested, "SchedulerConfig");

        SchedulerConfigEntity e = versioned.lockedForUpdate(kind, id, this::find, targetVersion);
        ObjectNode current = AwsJson.parse(e.documentJson);
        if (effective == null) {
            effective = (ObjectNode) current.get("SchedulerConfig");
        }
        if (description == null && current.hasNonNull("Description")) {
            description = current.get("Description").asText();
        }
        versioned.updated(e);
        apply(e, effective, description);
        versioned.save(kind, e, SchedulerConfigVersionEntity.class);
        outbox.schedulerConfigChanged(e.clusterArn, e.documentJson);
        return versioned.updatedResponse(kind, e);
    }

    @Override
    @Transactional
    public ObjectNode delete(JsonNode request) {
        SchedulerConfigEntity e = deleteNamed(request, "ClusterSchedulerConfigId", SchedulerConfigVersionEntity.class);
        outbox.schedulerConfigDeleted(e.clusterArn);
        return AwsJson.object();
    }

    /** The members of a stored document that its List summary shows. */
    private static final List<String> SUMMARY_MEMBERS = List.of("ClusterSchedulerConfigArn", "ClusterSchedulerConfigId",
            "ClusterSchedulerConfigVersion", "Name", "CreationTime", "LastModifiedTime", "Status", "ClusterArn");

    @Override
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
        return list.page(list.where() == null ? SchedulerConfigEntity.findAll(list.sort(column))
                : SchedulerConfigEntity.find(list.where(), list.sort(column), list.params()), "ClusterSchedulerConfigSummaries", SUMMARY_MEMBERS);
    }

    /** The config's own fields and its document, after {@link VersionedResources#created} or {@code updated}. */
    private void apply(SchedulerConfigEntity e, ObjectNode effective, String description) {
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
}
