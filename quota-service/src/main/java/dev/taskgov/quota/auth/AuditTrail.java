package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.AuditChain;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.service.support.auth.AuthFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
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
    QuotaTopicOutbox outbox;

    @Inject
    Clock clock;

    @Inject
    EntityManager em;

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
        outbox.audit(event.eventId(), event.toJson(), AUDIT_RECORDED);
    }

    /**
     * Stores the record as the next link of its service's chain: the head row's lock (held to the end of the
     * transaction) makes concurrent writers of one chain, on any instance, take turns, and a rolled-back change takes
     * its record and the head's move back together.
     */
    private void persist(AuditEvent event) {
        String chain = event.service();
        em.createNativeQuery("insert into audit_chain_head (chain, seq, hash) values (?1, 0, ?2) on conflict (chain) do nothing")
                .setParameter(1, chain).setParameter(2, AuditChain.GENESIS).executeUpdate();
        Object[] head = (Object[]) em.createNativeQuery("select seq, hash from audit_chain_head where chain = ?1 for update")
                .setParameter(1, chain).getSingleResult();
        long seq = ((Number) head[0]).longValue() + 1;
        String prevHash = (String) head[1];
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
        e.chain = chain;
        e.seq = seq;
        e.prevHash = prevHash;
        e.hash = AuditChain.hash(prevHash, seq, e.eventId, e.at.toString(), e.service, e.principal, e.operation, e.target,
                e.outcome, e.beforeJson, e.afterJson);
        e.persist();
        em.createNativeQuery("update audit_chain_head set seq = ?1, hash = ?2 where chain = ?3")
                .setParameter(1, seq).setParameter(2, e.hash).setParameter(3, chain).executeUpdate();
    }
}
