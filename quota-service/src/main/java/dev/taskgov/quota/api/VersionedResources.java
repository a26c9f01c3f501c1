package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.quota.config.QuotaServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.OptimisticLockException;
import jakarta.persistence.PersistenceException;

import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.function.Function;

/**
 * The one path by which a versioned SageMaker resource (a compute quota, a cluster scheduler config) changes, so that
 * both follow the same rules: a change takes its cluster's lock for its kind, reads the row again as committed (after
 * the lock, never before), checks the caller's {@code TargetVersion} against it, and flushes, a lost race or a broken
 * uniqueness rule answering {@code ConflictException}. Describing an older version reads its stored document.
 */
@ApplicationScoped
public class VersionedResources {

    /** A kind of versioned resource: how its ARN, its lock and its messages name it. */
    public enum Kind {
        COMPUTE_QUOTA("compute-quota", "compute quota", "ComputeQuotaVersion"),
        SCHEDULER_CONFIG("cluster-scheduler-config", "cluster scheduler config", "ClusterSchedulerConfigVersion");

        private final String resourceType;
        private final String noun;
        private final String versionMember;

        Kind(String resourceType, String noun, String versionMember) {
            this.resourceType = resourceType;
            this.noun = noun;
            this.versionMember = versionMember;
        }

        /** "compute quota 1a2b3c4d5e6f". */
        public String describe(String id) {
            return noun + " " + id;
        }
    }

    @Inject
    EntityManager entityManager;

    @Inject
    QuotaServiceConfig config;

    @Inject
    Clock clock;

    /** Serializes the changes of one cluster's resources of a kind, so that each sees the others committed. */
    public void lockCluster(Kind kind, String clusterArn) {
        entityManager.createNativeQuery("select count(*) from (select pg_advisory_xact_lock(hashtext(?1))) l")
                .setParameter(1, kind.resourceType + ":" + clusterArn).getSingleResult();
    }

    /**
     * The row to change or delete, under its cluster's lock and as committed: found (ResourceNotFound otherwise), its
     * cluster locked, then read again, since another change may have committed while this one waited for the lock.
     */
    public <E> E lockedForChange(Kind kind, String id, Function<String, E> find, Function<E, String> clusterOf) {
        E found = find.apply(id);
        lockCluster(kind, clusterOf.apply(found));
        E current = find.apply(id);
        entityManager.refresh(current);
        return current;
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
    public Optional<ObjectNode> olderVersion(Kind kind, String id, int current, Integer wanted,
                                             Function<Integer, Optional<String>> storedDocument) {
        if (wanted == null || wanted == current) return Optional.empty();
        return Optional.of(storedDocument.apply(wanted).map(AwsJson::parse)
                .orElseThrow(() -> AwsApiException.notFound(kind.versionMember + ": " + kind.describe(id) + " has no version "
                        + wanted + " (current version " + current + ")")));
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
