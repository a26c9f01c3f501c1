package dev.taskgov.quota.schedulerconfig;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.api.AwsApiException;
import dev.taskgov.quota.api.AwsJson;
import dev.taskgov.quota.api.Enums.SortClusterSchedulerConfigBy;
import dev.taskgov.quota.api.ListRequest;
import dev.taskgov.quota.api.RequestFields;
import dev.taskgov.quota.api.VersionedResourceOperations;
import dev.taskgov.quota.api.VersionedResources;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.service.support.QuotaRecords;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Sort;
import jakarta.enterprise.context.ApplicationScoped;

import java.util.List;
import java.util.Set;

/**
 * The five ClusterSchedulerConfig operations. A cluster has one scheduler config (its cluster
 * policy); every change runs in one transaction through {@link VersionedResources} (the cluster's lock, the row read
 * again, the version rule), then the row, its version document, and the outbox record for the quota topic.
 */
@ApplicationScoped
public class SchedulerConfigOperations extends VersionedResourceOperations<SchedulerConfigEntity, SortClusterSchedulerConfigBy> {

    private static final Members MEMBERS = new Members(
            Set.of("Name", "ClusterArn", "SchedulerConfig", "Description", "Tags"),
            Set.of("ClusterSchedulerConfigId", "TargetVersion", "SchedulerConfig", "Description"),
            List.of("ClusterSchedulerConfigArn", "ClusterSchedulerConfigId", "ClusterSchedulerConfigVersion", "Name",
                    "CreationTime", "LastModifiedTime", "Status", "ClusterArn"));

    public SchedulerConfigOperations() {
        super(VersionedResources.Kind.SCHEDULER_CONFIG, SchedulerConfigEntity.class, SchedulerConfigVersionEntity.class,
                SortClusterSchedulerConfigBy.class, MEMBERS);
    }

    /** One scheduler config per cluster. */
    @Override
    protected SchedulerConfigEntity create(VersionedResources.NewResource resource, JsonNode request) {
        JsonNode requested = RequestFields.requiredObject(request, "", "SchedulerConfig");
        ObjectNode effective = rules.schedulerConfig(requested, "SchedulerConfig");

        lockForCreate(resource);
        SchedulerConfigEntity existing = SchedulerConfigEntity.find("clusterArn", resource.clusterArn()).firstResult();
        if (existing != null) {
            throw AwsApiException.conflict("ClusterArn: cluster " + resource.clusterArn()
                    + " already has a cluster scheduler config (" + existing.id + "); update it instead");
        }
        SchedulerConfigEntity e = versioned.created(new SchedulerConfigEntity(), resource);
        apply(e, effective, resource.description());
        versioned.save(e, versions, "cluster " + resource.clusterArn() + " already has a cluster scheduler config");
        return e;
    }

    /** Starts from the current config and description: a member not given keeps its value. */
    @Override
    protected SchedulerConfigEntity update(VersionedResources.Change change, JsonNode request) {
        JsonNode requested = RequestFields.optionalObject(request, "", "SchedulerConfig");
        ObjectNode effective = requested == null ? null : rules.schedulerConfig(requested, "SchedulerConfig");

        SchedulerConfigEntity e = versioned.lockedForUpdate(kind, change.id(), this::find, change.targetVersion());
        ObjectNode current = AwsJson.parse(e.documentJson);
        if (effective == null) {
            effective = (ObjectNode) current.get("SchedulerConfig");
        }
        String description = change.description();
        if (description == null && current.hasNonNull("Description")) {
            description = current.get("Description").asText();
        }
        versioned.updated(e);
        apply(e, effective, description);
        versioned.save(kind, e, versions);
        return e;
    }

    @Override
    protected PanacheQuery<SchedulerConfigEntity> rows(ListRequest list, Sort sort) {
        return list.where() == null ? SchedulerConfigEntity.findAll(sort) : SchedulerConfigEntity.find(list.where(), sort, list.params());
    }

    @Override
    protected String recordKey(SchedulerConfigEntity e) {
        return QuotaRecords.schedulerConfigKey(ClusterArn.of(e.clusterArn));
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
