package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.quota.rules.QuotaRules;
import io.quarkus.hibernate.orm.panache.PanacheQuery;
import io.quarkus.panache.common.Sort;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The five calls of one kind of versioned resource (Create, Describe, Update, Delete, List): what every kind does here
 * (the members all calls share read, the row by id, a Create's cluster lock, the answers, the record on the quota
 * topic after each change), each kind's own rules in its subclass's hooks, through {@link VersionedResources}.
 *
 * @param <E> the kind's row
 * @param <S> the kind's {@code SortBy} values of its List call
 */
public abstract class VersionedResourceOperations<E extends VersionedResourceEntity, S extends Enum<S>>
        implements OperationRegistry {

    /** The members of a List call; every kind's takes the same ({@link ListRequest}, and its own {@code SortBy}). */
    private static final Set<String> LIST_MEMBERS = Set.of("CreatedAfter", "CreatedBefore", "NameContains", "Status",
            "ClusterArn", "SortBy", "SortOrder", "NextToken", "MaxResults");

    /** The row column of each {@code SortBy} value; the kinds' values of the same name sort by the same column. */
    private static final Map<String, String> SORT_COLUMNS = Map.of("Name", "name", "CreationTime", "createdAt",
            "Status", "status", "ClusterArn", "clusterArn");

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
    /** The kind's stored documents of each version. */
    protected final Class<? extends VersionDocumentEntity> versions;
    private final Class<S> sortBy;
    private final Members members;

    /**
     * The members a kind's Create and Update calls may have, and those of its stored document that its List summaries
     * show.
     */
    public record Members(Set<String> create, Set<String> update, List<String> summary) {
    }

    protected VersionedResourceOperations(VersionedResources.Kind kind, Class<E> rows,
                                          Class<? extends VersionDocumentEntity> versions, Class<S> sortBy, Members members) {
        this.kind = kind;
        this.rows = rows;
        this.versions = versions;
        this.sortBy = sortBy;
        this.members = members;
        for (S value : sortBy.getEnumConstants()) {
            if (!SORT_COLUMNS.containsKey(value.name())) {
                throw new IllegalArgumentException("SortBy value " + value + " of " + kind + " sorts by no column");
            }
        }
    }

    @Override
    public final Map<String, Operation> operations() {
        return VersionedResources.operations(kind, this::create, this::describe, this::update, this::delete, this::list);
    }

    /** Create: the common members read, then the kind's {@link #create(VersionedResources.NewResource, JsonNode)}. */
    @Transactional
    public ObjectNode create(JsonNode request) {
        E e = create(VersionedResources.NewResource.of(request, members.create()), request);
        outbox.resource(recordKey(e), e.documentJson);
        return versioned.createdResponse(kind, e);
    }

    /**
     * A Create's own work once the common members are read: the kind's members checked, {@link #lockForCreate}, the
     * kind's conflicts, and the new row ({@link VersionedResources#created}) with its first version saved.
     */
    protected abstract E create(VersionedResources.NewResource resource, JsonNode request);

    /** Describe: the row of the id member, at the version asked for ({@link #describe(VersionedResourceEntity, Integer)}). */
    @Transactional
    public ObjectNode describe(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of(kind.idMember(), kind.versionMember()));
        String id = RequestFields.requiredString(request, kind.idMember(), RequestFields.RESOURCE_ID, 12);
        Integer version = RequestFields.optionalInt(request, kind.versionMember(), 1, Integer.MAX_VALUE);
        return describe(find(id), version);
    }

    /** The answer to Describe of {@code e}: the stored document of {@code version} (null: the current one). */
    protected ObjectNode describe(E e, Integer version) {
        return versioned.describe(kind, e, version, versions);
    }

    /** Update: the common members read, then the kind's {@link #update(VersionedResources.Change, JsonNode)}. */
    @Transactional
    public ObjectNode update(JsonNode request) {
        E e = update(VersionedResources.Change.of(kind, request, members.update()), request);
        outbox.resource(recordKey(e), e.documentJson);
        return versioned.updatedResponse(kind, e);
    }

    /**
     * An Update's own work once the common members are read: the kind's members checked, the row
     * {@link VersionedResources#lockedForUpdate}, its rules, then {@link VersionedResources#updated} and the row and its
     * new version saved.
     */
    protected abstract E update(VersionedResources.Change change, JsonNode request);

    /**
     * Delete: the request names the resource's id and nothing else; the row and its versions are deleted under its
     * cluster's lock, and its tombstone goes on the quota topic.
     */
    @Transactional
    public ObjectNode delete(JsonNode request) {
        RequestFields.onlyKnown(request, "", Set.of(kind.idMember()));
        String id = RequestFields.requiredString(request, kind.idMember(), RequestFields.RESOURCE_ID, 12);
        E e = versioned.delete(kind, id, this::find, versions);
        outbox.resource(recordKey(e), null);
        return AwsJson.object();
    }

    /** List: the filters, the {@code SortBy} column and the page of {@link #rows}, each summarized. */
    @Transactional
    public ObjectNode list(JsonNode request) {
        RequestFields.onlyKnown(request, "", LIST_MEMBERS);
        ListRequest list = ListRequest.parse(request);
        S by = RequestFields.optionalEnum(request, "SortBy", sortBy);
        Sort sort = list.sort(SORT_COLUMNS.get(by == null ? "CreationTime" : by.name()));
        return list.page(rows(list, sort), kind.member() + "Summaries", members.summary());
    }

    /** The rows {@code list} selects, in {@code sort} order: its filter ({@link ListRequest#where}), or all. */
    protected abstract PanacheQuery<E> rows(ListRequest list, Sort sort);

    /** The key of {@code e}'s record on the quota topic ({@link dev.taskgov.service.support.QuotaRecords}). */
    protected abstract String recordKey(E e);

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

    /** This kind's ARN of {@code id}. */
    protected String arn(String id) {
        return versioned.arn(kind, id);
    }
}
