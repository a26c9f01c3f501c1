package dev.taskgov.quota.outbox;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.quota.config.QuotaServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.UUID;

/**
 * Writes the records of the quota topic into the outbox, inside the caller's transaction. Keys name the
 * cluster ({@link ClusterScopedKey}): {@code <ClusterArn>#<team>} for a compute quota,
 * {@code <ClusterArn>#_scheduler-config} for the cluster's scheduler config, so one cluster's records
 * never replace another's; a deletion is a tombstone.
 */
@ApplicationScoped
public class QuotaTopicOutbox {

    /** {@code ce_type} of a compute quota's effective state. */
    public static final String COMPUTE_QUOTA_CHANGED = "dev.taskgov.quota.compute-quota.changed";
    /** {@code ce_type} of a compute quota's tombstone. */
    public static final String COMPUTE_QUOTA_DELETED = "dev.taskgov.quota.compute-quota.deleted";
    /** {@code ce_type} of the cluster scheduler config's state. */
    public static final String SCHEDULER_CONFIG_CHANGED = "dev.taskgov.quota.scheduler-config.changed";
    /** {@code ce_type} of the cluster scheduler config's tombstone. */
    public static final String SCHEDULER_CONFIG_DELETED = "dev.taskgov.quota.scheduler-config.deleted";
    /** {@code ce_type} of an access key's record on the credentials topic. */
    public static final String ACCESS_KEY_CHANGED = "dev.taskgov.credentials.access-key.changed";
    /** {@code ce_type} of a revoked access key's tombstone. */
    public static final String ACCESS_KEY_REVOKED = "dev.taskgov.credentials.access-key.revoked";

    @Inject
    QuotaServiceConfig config;

    @Inject
    Clock clock;

    @Inject
    Event<OutboxWritten> written;

    /** Fired inside the writing transaction; the publisher reacts after it commits. */
    public record OutboxWritten() {
    }

    /**
     * A versioned resource's record under {@code key} ({@link QuotaRecords}): its Describe document, or its tombstone
     * when {@code describeDocument} is null, typed as {@link #typeOf} types it.
     */
    public void resource(String key, String describeDocument) {
        write(key, describeDocument, typeOf(key, describeDocument));
    }

    public void quotaChanged(String clusterArn, String team, String describeDocument) {
        write(QuotaRecords.quotaKey(ClusterArn.of(clusterArn), team), describeDocument, COMPUTE_QUOTA_CHANGED);
    }

    public void quotaDeleted(String clusterArn, String team) {
        write(QuotaRecords.quotaKey(ClusterArn.of(clusterArn), team), null, COMPUTE_QUOTA_DELETED);
    }

    public void schedulerConfigChanged(String clusterArn, String describeDocument) {
        write(QuotaRecords.schedulerConfigKey(ClusterArn.of(clusterArn)), describeDocument, SCHEDULER_CONFIG_CHANGED);
    }

    /**
     * The {@code ce_type} of a quota-topic record, from its key and whether it is a tombstone; also for
     * rows written before the outbox stored the type (V1), which would otherwise go out untyped.
     */
    public static String typeOf(String key, String payload) {
        boolean config = key != null && ClusterScopedKey.problem(key).isEmpty() && ClusterScopedKey.parse(key).isSchedulerConfig();
        if (payload == null) return config ? SCHEDULER_CONFIG_DELETED : COMPUTE_QUOTA_DELETED;
        return config ? SCHEDULER_CONFIG_CHANGED : COMPUTE_QUOTA_CHANGED;
    }

    private void write(String key, String payload, String type) {
        write(config.topics().quota(), key, payload, type);
    }

    /** An access key's record on the credentials topic, in the caller's transaction. */
    public void accessKeyChanged(String accessKeyId, String record) {
        write(config.topics().credentials(), accessKeyId, record, ACCESS_KEY_CHANGED);
    }

    /** A revoked access key's tombstone on the credentials topic, in the caller's transaction. */
    public void accessKeyRevoked(String accessKeyId) {
        write(config.topics().credentials(), accessKeyId, null, ACCESS_KEY_REVOKED);
    }

    /** An audit record on the audit topic, in the caller's transaction. */
    public void audit(String eventId, String record, String type) {
        write(config.topics().audit(), eventId, record, type);
    }

    /** A record for another topic of this service, in the caller's transaction. */
    public void write(String topic, String key, String payload, String type) {
        OutboxEvent event = OutboxEvent.of(topic, key, payload, clock.instant());
        event.eventType = type;
        event.eventId = UUID.randomUUID().toString();
        event.persist();
        written.fire(new OutboxWritten());
    }
}
