package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.quota.rules.QuotaRules;
import jakarta.inject.Inject;

import java.util.Map;

/**
 * The five calls of one kind of versioned resource (Create, Describe, Update, Delete, List), each kind's own rules in
 * its subclass, and what they share through {@link VersionedResources}: the calls' names, the row by id, a Create's
 * cluster lock.
 *
 * @param <E> the kind's row
 */
public abstract class VersionedResourceOperations<E extends VersionedResourceEntity> implements OperationRegistry {

    @Inject
    protected VersionedResources versioned;

    @Inject
    protected QuotaRules rules;

    @Inject
    protected ClusterCapacity capacity;

    @Inject
    protected QuotaTopicOutbox outbox;

    protected final VersionedResources.Kind kind;
    private final Class<E> rows;

    protected VersionedResourceOperations(VersionedResources.Kind kind, Class<E> rows) {
        this.kind = kind;
        this.rows = rows;
    }

    @Override
    public final Map<String, Operation> operations() {
        return VersionedResources.operations(kind, this::create, this::describe, this::update, this::delete, this::list);
    }

    public abstract ObjectNode create(JsonNode request);

    public abstract ObjectNode describe(JsonNode request);

    public abstract ObjectNode update(JsonNode request);

    public abstract ObjectNode delete(JsonNode request);

    public abstract ObjectNode list(JsonNode request);

    /**
     * A Create's start once the request's own rules passed (so a bad request names all its broken fields first): the
     * cluster must be governed, and its lock for this kind is taken.
     */
    protected void lockForCreate(VersionedResources.NewResource resource) {
        capacity.requireGoverned(resource.clusterArn());
        versioned.lockCluster(kind, resource.clusterArn());
    }

    /** The row of {@code id}; ResourceNotFound naming the id member otherwise. */
    protected E find(String id) {
        return versioned.find(kind, rows, id);
    }

    /**
     * A Delete's work: the request names the resource's id ({@code idMember}) and nothing else; the row and its
     * versions are deleted under its cluster's lock, and the deleted row is answered (for its tombstone).
     */
    protected E deleteNamed(JsonNode request, String idMember, Class<? extends VersionDocumentEntity> versions) {
        RequestFields.onlyKnown(request, "", java.util.Set.of(idMember));
        String id = RequestFields.requiredString(request, idMember, RequestFields.RESOURCE_ID, 12);
        return versioned.delete(kind, id, this::find, versions);
    }

    /** This kind's ARN of {@code id}. */
    protected String arn(String id) {
        return versioned.arn(kind, id);
    }
}
