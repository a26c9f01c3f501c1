package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.AuditChain;
import dev.taskgov.core.auth.AuditEvent;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Appends audit records to their services' hash chains (core's AuditChain; tables {@code audit_event} and
 * {@code audit_chain_head}, migrations V20, V21), one record or many in one go, in the caller's transaction: each
 * chain's head row is locked and read once, the links are computed in memory in the order given, the rows go to the
 * database as one JDBC batch and each head moves once, to the last record appended to its chain. The head's lock,
 * held to the end of the transaction, makes writers of one chain on any instance take turns, and a rolled-back
 * transaction takes its records and the heads' moves back together.
 */
final class AuditChains {

    /** Which of the given event ids are stored already. */
    interface StoredIds {
        Set<String> among(Collection<String> eventIds) throws SQLException;
    }

    private static final String INSERT = "insert into audit_event (event_id, at, service, principal, operation, target, "
            + "outcome, before_json, after_json, chain, seq, prev_hash, hash) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    private static final class Head {
        long seq;
        String hash;
        boolean moved;
    }

    /**
     * Appends {@code events} in the order given, each to the chain of its service, skipping those that
     * {@code alreadyStored} (asked once every chain's lock is held, so that a writer of the same records that
     * committed meanwhile is seen; null: the records are new) names. Returns the records appended.
     */
    List<AuditEvent> append(Connection c, List<AuditEvent> events, StoredIds alreadyStored) throws SQLException {
        if (events.isEmpty()) return List.of();
        // Locked in the chains' name order, so that two writers of several chains cannot wait for each other.
        Map<String, Head> heads = new TreeMap<>();
        for (AuditEvent e : events) {
            if (e.service() == null) throw new IllegalArgumentException("service: an audit record must name its service");
            if (e.at() == null) throw new IllegalArgumentException("at: an audit record must say when it was made");
            fits("eventId", e.eventId(), 64);
            fits("service", e.service(), 64);
            fits("principal", e.principal(), 128);
            fits("operation", e.operation(), 128);
            heads.putIfAbsent(e.service(), null);
        }
        for (Map.Entry<String, Head> h : heads.entrySet()) h.setValue(lockHead(c, h.getKey()));
        List<AuditEvent> toAppend = events;
        if (alreadyStored != null) {
            Set<String> stored = alreadyStored.among(events.stream().map(AuditEvent::eventId).toList());
            if (!stored.isEmpty()) {
                toAppend = new ArrayList<>(events.size());
                for (AuditEvent e : events) if (!stored.contains(e.eventId())) toAppend.add(e);
            }
        }
        if (toAppend.isEmpty()) return List.of();
        try (PreparedStatement insert = c.prepareStatement(INSERT)) {
            for (AuditEvent e : toAppend) {
                Head head = heads.get(e.service());
                long seq = head.seq + 1;
                String before = e.before() == null ? null : e.before().toString();
                String after = e.after() == null ? null : e.after().toString();
                String hash = AuditChain.hash(head.hash, seq, e.eventId(), e.at().toString(), e.service(), e.principal(),
                        e.operation(), e.target(), e.outcome(), before, after);
                insert.setString(1, e.eventId());
                insert.setObject(2, e.at().atOffset(ZoneOffset.UTC));
                insert.setString(3, e.service());
                insert.setString(4, e.principal());
                insert.setString(5, e.operation());
                text(insert, 6, e.target());
                insert.setString(7, e.outcome());
                text(insert, 8, before);
                text(insert, 9, after);
                insert.setString(10, e.service());
                insert.setLong(11, seq);
                insert.setString(12, head.hash);
                insert.setString(13, hash);
                insert.addBatch();
                head.seq = seq;
                head.hash = hash;
                head.moved = true;
            }
            insert.executeBatch();
        }
        try (PreparedStatement move = c.prepareStatement("update audit_chain_head set seq = ?, hash = ? where chain = ?")) {
            for (Map.Entry<String, Head> h : heads.entrySet()) {
                if (!h.getValue().moved) continue;
                move.setLong(1, h.getValue().seq);
                move.setString(2, h.getValue().hash);
                move.setString(3, h.getKey());
                move.addBatch();
            }
            move.executeBatch();
        }
        return toAppend;
    }

    /** The chain's head, locked to the end of the transaction (made at seq 0 for a chain's first record). */
    private static Head lockHead(Connection c, String chain) throws SQLException {
        Head head = readLocked(c, chain);
        if (head == null) {
            try (PreparedStatement ps = c.prepareStatement(
                    "insert into audit_chain_head (chain, seq, hash) values (?, 0, ?) on conflict (chain) do nothing")) {
                ps.setString(1, chain);
                ps.setString(2, AuditChain.GENESIS);
                ps.executeUpdate();
            }
            head = readLocked(c, chain);
        }
        return head;
    }

    private static Head readLocked(Connection c, String chain) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("select seq, hash from audit_chain_head where chain = ? for update")) {
            ps.setString(1, chain);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) return null;
                Head head = new Head();
                head.seq = rs.getLong(1);
                head.hash = rs.getString(2);
                return head;
            }
        }
    }

    /** The bounded columns of audit_event (V16): a record too long for one is refused with the field's name. */
    private static void fits(String field, String value, int max) {
        if (value != null && value.codePointCount(0, value.length()) > max) {
            throw new IllegalArgumentException(field + ": an audit record's " + field + " has at most " + max
                    + " characters, this one " + value.codePointCount(0, value.length()));
        }
    }

    private static void text(PreparedStatement ps, int index, String value) throws SQLException {
        if (value == null) {
            ps.setNull(index, Types.VARCHAR);
        } else {
            ps.setString(index, value);
        }
    }
}
