package dev.taskgov.quota.auth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import dev.taskgov.service.support.auth.AuthFailure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceException;
import jakarta.transaction.Transactional;
import org.hibernate.Session;
import org.hibernate.jdbc.ReturningWork;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * quota-service's audit records: in its own table and, through the outbox, on the audit topic, in the transaction of
 * the change they describe (a refusal changes nothing, so it gets a transaction of its own); and the other services'
 * records from the audit topic, a batch at a time. Each is appended to its service's chain by {@link AuditChains}.
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

    private final AuditChains chains = new AuditChains();

    /** Which of a batch's event ids are stored already (records read again after a crash, quota-service's own). */
    static final String STORED_IDS = "select event_id from audit_event where event_id = any (?)";

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

    /**
     * Stores records from the audit topic (other services') in one transaction (the caller's, if any), each once: its
     * event id is the key, so a record already stored (quota-service's own, coming back; one stored before a crash kept
     * the consumer from committing its offset) or given twice is skipped. Returns the records stored, in the order given.
     */
    @Transactional
    public List<AuditEvent> storeFromTopic(List<AuditEvent> events) {
        Map<String, AuditEvent> byId = new LinkedHashMap<>();
        for (AuditEvent e : events) byId.putIfAbsent(e.eventId(), e);
        return connection(c -> {
            // Before any lock: a batch of records already stored (replayed, or quota-service's own) waits for no chain.
            byId.keySet().removeAll(stored(c, byId.keySet()));
            return chains.append(c, List.copyOf(byId.values()), ids -> stored(c, ids));
        });
    }

    private void store(AuditEvent event) {
        connection(c -> chains.append(c, List.of(event), null));
        outbox.audit(event.eventId(), event.toJson(), AUDIT_RECORDED);
    }

    /** The event ids among {@code ids} that are in the table (committed, or written by this transaction). */
    private static Set<String> stored(Connection c, Collection<String> ids) throws SQLException {
        Set<String> found = new HashSet<>();
        if (ids.isEmpty()) return found;
        try (PreparedStatement ps = c.prepareStatement(STORED_IDS)) {
            ps.setArray(1, c.createArrayOf("varchar", ids.toArray()));
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) found.add(rs.getString(1));
            }
        }
        return found;
    }

    /**
     * Runs {@code work} on the JDBC connection of the current transaction (the one Hibernate uses); a refusal keeps
     * PostgreSQL's reason (a batch's first failed statement's), which a dead letter then carries.
     */
    private <T> T connection(ReturningWork<T> work) {
        return em.unwrap(Session.class).doReturningWork(c -> {
            try {
                preferIndexes(c);
                return work.execute(c);
            } catch (SQLException e) {
                SQLException reason = e.getNextException() != null ? e.getNextException() : e;
                throw new PersistenceException("audit_event: " + reason.getMessage(), e);
            }
        });
    }

    /**
     * Every statement of an append finds rows by a key (the batch's event ids, a chain's head, a chain's records
     * between two sequence numbers), so within its transaction the planner is told to use the indexes. Left to its
     * figures it scans the whole table while the table grows faster than autovacuum analyzes it (at most once a
     * minute): from an empty table, each batch's look-up of up to 500 ids read every row, and a run that stored
     * 200,000 records in 85 s spent about 40 s of the database's CPU, nearly all of it there (docs/benchmarks.md).
     */
    static void preferIndexes(Connection c) throws SQLException {
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("set local enable_seqscan = off");
        }
    }
}
