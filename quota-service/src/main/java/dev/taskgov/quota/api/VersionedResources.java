package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.api.Enums.Status;
import dev.taskgov.quota.auth.Caller;
import dev.taskgov.quota.config.QuotaServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * The one path by which a versioned SageMaker resource (a compute quota, a cluster scheduler config) changes, so that
 * both follow the same rules: a change takes its cluster's lock for its kind, reads the row again as committed (after
 * the lock, never before), checks the caller's {@code TargetVersion} against it, writes the row with its version
 * document, and flushes, a lost race or a broken uniqueness rule answering {@code ConflictException}; a delete takes
 * the same lock and re-read. Describing an older version reads its stored document.
 */
@ApplicationScoped
public class VersionedResources {

    /** A kind of versioned resource: how its ARN, its lock, its API members and its messages name it. */
    public enum Kind {
        COMPUTE_QUOTA("compute-quota", "compute quota", "ComputeQuota"),
        SCHEDULER_CONFIG("cluster-scheduler-config", "cluster scheduler config", "ClusterSchedulerConfig");

        private final String resourceType;
        private final String noun;
        /** What the API's members are named after: {@code <member>Arn}, {@code <member>Id}, {@code <member>Version}. */
        private final String member;
        private final String versionMember;

        Kind(String resourceType, String noun, String member) {
            this.resourceType = resourceType;
            this.noun = noun;
            this.member = member;
            this.versionMember = member + "Version";
        }

        /** "compute quota 1a2b3c4d5e6f". */
        public String describe(String id) {
            return noun + " " + id;
        }

        /** What the API's members are named after, e.g. {@code ComputeQuota}. */
        public String member() {
            return member;
        }

        /** {@code <member>Id}: the member that names one resource. */
        public String idMember() {
            return member + "Id";
        }

        /** {@code <member>Version}: the member that names one version of a resource. */
        public String versionMember() {
            return versionMember;
        }
    }

    @Inject
    EntityManager entityManager;

    @Inject
    QuotaServiceConfig config;

    @Inject
    Clock clock;

    @Inject
    Caller caller;

    /** The five calls of a kind ({@code Create<member>}, Describe, Update, Delete, {@code List<member>s}) to their methods. */
    public static Map<String, Operation> operations(Kind kind, Operation create, Operation describe, Operation update,
                                                    Operation delete, Operation list) {
        Map<String, Operation> ops = new LinkedHashMap<>();
        ops.put("Create" + kind.member, create);
        ops.put("Describe" + kind.member, describe);
        ops.put("Update" + kind.member, update);
        ops.put("Delete" + kind.member, delete);
        ops.put("List" + kind.member + "s", list);
        return ops;
    }

    /** What every Create call names: the resource's name, its cluster and its description. */
    public record NewResource(String name, String clusterArn, String description) {

        /** Read from a Create request that may have only the {@code members} given (ValidationException otherwise). */
        public static NewResource of(JsonNode request, Set<String> members) {
            RequestFields.onlyKnown(request, "", members);
            return new NewResource(RequestFields.requiredString(request, "Name", RequestFields.RESOURCE_NAME, 63),
                    RequestFields.requiredString(request, "ClusterArn", RequestFields.CLUSTER_ARN, 256),
                    RequestFields.optionalString(request, "Description", null, 1024));
        }
    }

    /** What every Update call names: the resource's id, the version it updates, and its description (null: kept). */
    public record Change(String id, int targetVersion, String description) {

        /** Read from an Update request of {@code kind} that may have only the {@code members} given (ValidationException otherwise). */
        public static Change of(Kind kind, JsonNode request, Set<String> members) {
            RequestFields.onlyKnown(request, "", members);
            return new Change(RequestFields.requiredString(request, kind.idMember(), RequestFields.RESOURCE_ID, 12),
                    RequestFields.requiredInt(request, "TargetVersion", 1, Integer.MAX_VALUE),
                    RequestFields.optionalString(request, "Description", null, 1024));
        }
    }

    /** Serializes the changes of one cluster's resources of a kind, so that each sees the others committed. */
    public void lockCluster(Kind kind, String clusterArn) {
        entityManager.createNativeQuery("select count(*) from (select pg_advisory_xact_lock(hashtext(?1))) l")
                .setParameter(1, kind.resourceType + ":" + clusterArn).getSingleResult();
    }

    /**
     * The row to change or delete, under its cluster's lock and as committed: found (ResourceNotFound otherwise), its
     * cluster locked, then read again, since another change may have committed while this one waited for the lock.
     */
    public <E extends VersionedResourceEntity> E lockedForChange(Kind kind, String id, Function<String, E> find) {
        E found = find.apply(id);
        lockCluster(kind, found.clusterArn);
        E current = find.apply(id);
        entityManager.refresh(current);
        return current;
    }

    /**
     * A new resource's common fields, before the caller fills in its own and its document: a new id, its cluster and
     * name, version 1, created now.
     */
    public <E extends VersionedResourceEntity> E created(E e, NewResource resource) {
        e.id = Ids.newId();
        e.clusterArn = resource.clusterArn();
        e.name = resource.name();
        e.version = 1;
        e.status = Status.Created.name();
        e.createdAt = now();
        e.lastModifiedAt = e.createdAt;
        return e;
    }

    /** The row to update: {@link #lockedForChange}, at the caller's {@code TargetVersion} ({@link #requireVersion}). */
    public <E extends VersionedResourceEntity> E lockedForUpdate(Kind kind, String id, Function<String, E> find,
                                                                 int targetVersion) {
        E e = lockedForChange(kind, id, find);
        requireVersion(kind, id, e.version, targetVersion);
        return e;
    }

    /**
     * An update's common fields, once the caller's own rules passed and before it changes its own fields and its
     * document (changed earlier, the row would be flushed by the rules' queries): the next version, modified now.
     */
    public void updated(VersionedResourceEntity e) {
        e.version = e.version + 1;
        e.status = Status.Updated.name();
        e.lastModifiedAt = now();
    }

    /**
     * Writes a change: the row (persisted when it is new) and {@code version}, its document as of this version by the
     * caller's principal, then {@link #flush}es them ({@code conflict} on a lost race or a broken uniqueness rule).
     */
    public void save(VersionedResourceEntity e, Class<? extends VersionDocumentEntity> versions, String conflict) {
        if (!e.isPersistent()) e.persist();
        VersionDocumentEntity version;
        try {
            version = versions.getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot create a " + versions.getName(), ex);
        }
        version.resourceId = e.id;
        version.version = e.version;
        version.documentJson = e.documentJson;
        version.author = Caller.nameOf(caller);
        version.persist();
        flush(conflict);
    }

    /** {@link #save} of an update, whose conflict is a concurrent change. */
    public void save(Kind kind, VersionedResourceEntity e, Class<? extends VersionDocumentEntity> versions) {
        save(e, versions, kind.describe(e.id) + " was changed concurrently");
    }

    /** Deletes the row and its versions ({@code deleteVersions}) under its cluster's lock; answers the deleted row. */
    public <E extends VersionedResourceEntity> E delete(Kind kind, String id, Function<String, E> find,
                                                        Class<? extends VersionDocumentEntity> versions) {
        E e = lockedForChange(kind, id, find);
        entityManager.createQuery("delete from " + entityName(versions) + " v where v.resourceId = ?1").setParameter(1, id)
                .executeUpdate();
        e.delete();
        flush(kind.describe(id) + " was changed concurrently");
        return e;
    }

    /** The answer to a Create call: the new resource's ARN and id. */
    public ObjectNode createdResponse(Kind kind, VersionedResourceEntity e) {
        ObjectNode response = AwsJson.object();
        response.put(kind.member + "Arn", arn(kind, e.id));
        response.put(kind.member + "Id", e.id);
        return response;
    }

    /** The answer to an Update call: the resource's ARN and its new version. */
    public ObjectNode updatedResponse(Kind kind, VersionedResourceEntity e) {
        ObjectNode response = AwsJson.object();
        response.put(kind.member + "Arn", arn(kind, e.id));
        response.put(kind.versionMember, e.version);
        return response;
    }

    /**
     * A stored resource as Describe answers it: its current document, or the stored document of the older
     * {@code wanted} version ({@link #olderVersion}).
     */
    public ObjectNode describe(Kind kind, VersionedResourceEntity e, Integer wanted,
                               Class<? extends VersionDocumentEntity> versions) {
        return olderVersion(kind, e, wanted, versions).orElseGet(() -> AwsJson.parse(e.documentJson));
    }

    /** The row of {@code id}; ResourceNotFound naming the id member otherwise. */
    public <E extends VersionedResourceEntity> E find(Kind kind, Class<E> rows, String id) {
        E e = entityManager.find(rows, id);
        if (e == null) {
            throw AwsApiException.notFound(kind.member + "Id: " + kind.describe(id) + " does not exist");
        }
        return e;
    }

    /** The caller's {@code TargetVersion} must be the current version, else ConflictException saying what to do. */
    public void requireVersion(Kind kind, String id, int current, int target) {
        if (current != target) {
            throw AwsApiException.conflict("TargetVersion: " + target + " is not the current " + kind.versionMember + " "
                    + current + " of " + kind.describe(id) + "; describe it again and retry");
        }
    }

    /**
     * A stored version's document, when the caller asked for one that is not current: empty for the current one (the
     * caller answers it as it is), ResourceNotFound for a version that does not exist.
     */
    public Optional<ObjectNode> olderVersion(Kind kind, VersionedResourceEntity e, Integer wanted,
                                             Class<? extends VersionDocumentEntity> versions) {
        if (wanted == null || wanted == e.version) return Optional.empty();
        List<String> stored = entityManager.createQuery("select v.documentJson from " + entityName(versions)
                        + " v where v.resourceId = ?1 and v.version = ?2", String.class)
                .setParameter(1, e.id).setParameter(2, wanted).getResultList();
        if (stored.isEmpty()) {
            throw AwsApiException.notFound(kind.versionMember + ": " + kind.describe(e.id) + " has no version " + wanted
                    + " (current version " + e.version + ")");
        }
        return Optional.of(AwsJson.parse(stored.get(0)));
    }

    private String entityName(Class<?> entity) {
        return entityManager.getMetamodel().entity(entity).getName();
    }

    /** Writes the transaction's changes now; a concurrent change or a uniqueness rule it breaks is ConflictException. */
    public void flush(String conflictMessage) {
        try {
            entityManager.flush();
        } catch (OptimisticLockException e) {
            throw AwsApiException.conflict(conflictMessage);
        } catch (PersistenceException e) {
            if (e instanceof org.hibernate.exception.ConstraintViolationException
                    || e.getCause() instanceof org.hibernate.exception.ConstraintViolationException) {
                throw AwsApiException.conflict(conflictMessage);
            }
            throw e;
        }
    }

    public String arn(Kind kind, String id) {
        return "arn:aws:sagemaker:" + config.quota().region() + ":" + config.quota().accountId() + ":" + kind.resourceType + "/" + id;
    }

    /** Millisecond precision: what the API returns is what the list filters compare. */
    public Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MILLIS);
    }
}
