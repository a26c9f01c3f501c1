package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.service.support.auth.AuthFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.transaction.Transactional;

import java.time.Clock;

/**
 * quota-service's audit records: in its own table and, through the outbox, on the audit topic, in the transaction of
 * the change they describe (a refusal changes nothing, so it gets a transaction of its own).
 */
@ApplicationScoped
public class AuditTrail {

    public static final String SERVICE = "quota-service";
    public static final String AUDIT_RECORDED = dev.taskgov.service.support.auth.AuditProducer.TYPE;

    @Inject
    QuotaServiceConfig config;

    @Inject
    QuotaTopicOutbox outbox;

    @Inject
    Clock clock;

    /** A change or an allowed call: joins the caller's transaction when there is one. */
    @Transactional
    public void record(String principal, String operation, String target, String outcome, JsonNode before, JsonNode after) {
        store(AuditEvent.of(clock.instant(), SERVICE, principal, operation, target, outcome, before, after));
    }

    /** A refused request (bad or missing signature, unknown key, a role that does not allow it). */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void refused(String principal, String operation, String target, AuthFailure failure) {
        store(AuditEvent.of(clock.instant(), SERVICE, principal, operation, target,
                AuditEvent.refused(failure.type(), failure.getMessage(), principal == null ? failure.claimedKeyId() : null), null, null));
    }

    /** A record made outside a change (a refusal, a read of the audit trail): a transaction of its own. */
    @Transactional(Transactional.TxType.REQUIRES_NEW)
    public void storeNew(AuditEvent event) {
        store(event);
    }

    /** Stores a record from the audit topic (another service's), once: its event id is the key. */
    @Transactional
    public void storeFromTopic(AuditEvent event) {
        if (AuditEventEntity.findById(event.eventId()) == null) {
            persist(event);
        }
    }

    private void store(AuditEvent event) {
        persist(event);
        outbox.write(config.topics().audit(), event.eventId(), event.toJson(), AUDIT_RECORDED);
    }

    private static void persist(AuditEvent event) {
        AuditEventEntity e = new AuditEventEntity();
        e.eventId = event.eventId();
        e.at = event.at();
        e.service = event.service();
        e.principal = event.principal();
        e.operation = event.operation();
        e.target = event.target();
        e.outcome = event.outcome();
        e.beforeJson = event.before() == null ? null : event.before().toString();
        e.afterJson = event.after() == null ? null : event.after().toString();
        e.persist();
    }
}
