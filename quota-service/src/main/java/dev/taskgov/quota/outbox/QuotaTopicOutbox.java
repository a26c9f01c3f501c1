package dev.taskgov.quota.outbox;

import dev.taskgov.quota.config.QuotaServiceConfig;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Event;
import jakarta.inject.Inject;

import java.time.Clock;
import java.util.UUID;

/**
 * Writes the records of the quota topic into the outbox, inside the caller's transaction. Keys: the
 * team name for a compute quota, {@value #SCHEDULER_CONFIG_KEY} for the cluster scheduler config;
 * a deletion is a tombstone.
 */
@ApplicationScoped
public class QuotaTopicOutbox {

    /** Key of the cluster scheduler config on the quota topic (not a valid team name). */
    public static final String SCHEDULER_CONFIG_KEY = "_scheduler-config";
    /** {@code ce_type} of a compute quota's effective state. */
    public static final String COMPUTE_QUOTA_CHANGED = "dev.taskgov.quota.compute-quota.changed";
    /** {@code ce_type} of a compute quota's tombstone. */
    public static final String COMPUTE_QUOTA_DELETED = "dev.taskgov.quota.compute-quota.deleted";
    /** {@code ce_type} of the cluster scheduler config's state. */
    public static final String SCHEDULER_CONFIG_CHANGED = "dev.taskgov.quota.scheduler-config.changed";
    /** {@code ce_type} of the cluster scheduler config's tombstone. */
    public static final String SCHEDULER_CONFIG_DELETED = "dev.taskgov.quota.scheduler-config.deleted";

    @Inject
    QuotaServiceConfig config;

    @Inject
    Clock clock;

    @Inject
    Event<OutboxWritten> written;

    /** Fired inside the writing transaction; the publisher reacts after it commits. */
    public record OutboxWritten() {
    }

    public void quotaChanged(String team, String describeDocument) {
        write(team, describeDocument, COMPUTE_QUOTA_CHANGED);
    }

    public void quotaDeleted(String team) {
        write(team, null, COMPUTE_QUOTA_DELETED);
    }

    public void schedulerConfigChanged(String describeDocument) {
        write(SCHEDULER_CONFIG_KEY, describeDocument, SCHEDULER_CONFIG_CHANGED);
    }

    public void schedulerConfigDeleted() {
        write(SCHEDULER_CONFIG_KEY, null, SCHEDULER_CONFIG_DELETED);
    }

    /**
     * The {@code ce_type} of a quota-topic record, from its key and whether it is a tombstone; also for
     * rows written before the outbox stored the type (V1), which would otherwise go out untyped.
     */
    public static String typeOf(String key, String payload) {
        boolean config = SCHEDULER_CONFIG_KEY.equals(key);
        if (payload == null) return config ? SCHEDULER_CONFIG_DELETED : COMPUTE_QUOTA_DELETED;
        return config ? SCHEDULER_CONFIG_CHANGED : COMPUTE_QUOTA_CHANGED;
    }

    private void write(String key, String payload, String type) {
        write(config.topics().quota(), key, payload, type);
    }

    /** A record for another topic of this service (credentials, audit), in the caller's transaction. */
    public void write(String topic, String key, String payload, String type) {
        OutboxEvent event = OutboxEvent.of(topic, key, payload, clock.instant());
        event.eventType = type;
        event.eventId = UUID.randomUUID().toString();
        event.persist();
        written.fire(new OutboxWritten());
    }
}
