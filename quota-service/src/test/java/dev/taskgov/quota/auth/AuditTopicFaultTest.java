package dev.taskgov.quota.auth;

import jakarta.persistence.PersistenceException;
import org.junit.jupiter.api.Test;

import java.sql.BatchUpdateException;
import java.sql.SQLException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which failures to store the audit topic's records cost them a dead letter, and which leave them for redelivery. */
class AuditTopicFaultTest {

    @Test
    void aRuleOfTheAuditRecordIsTheRecordsFault() {
        assertTrue(AuditTopicConsumer.theRecordsFault(
                new IllegalArgumentException("principal: an audit record's principal has at most 128 characters")));
    }

    @Test
    void aDataOrConstraintErrorOfTheTableIsTheRecordsFault() {
        assertTrue(AuditTopicConsumer.theRecordsFault(
                new PersistenceException("audit_event: value too long", new SQLException("value too long", "22001"))));
        assertTrue(AuditTopicConsumer.theRecordsFault(
                new PersistenceException("audit_event: duplicate key", new SQLException("duplicate key", "23505"))));
    }

    @Test
    void aBatchsNextExceptionCarriesTheReason() {
        BatchUpdateException batch = new BatchUpdateException("batch entry 3 was aborted", "  ", new int[0]);
        batch.setNextException(new SQLException("null value in column", "23502"));
        assertTrue(AuditTopicConsumer.theRecordsFault(new PersistenceException("audit_event", batch)));
    }

    @Test
    void aLostConnectionOrAStoppingServiceIsNot() {
        assertFalse(AuditTopicConsumer.theRecordsFault(
                new PersistenceException("audit_event: I/O error", new SQLException("connection lost", "08006"))));
        assertFalse(AuditTopicConsumer.theRecordsFault(
                new PersistenceException("terminating connection", new SQLException("admin shutdown", "57P01"))));
        assertFalse(AuditTopicConsumer.theRecordsFault(new IllegalStateException("EntityManagerFactory is closed")));
    }
}
