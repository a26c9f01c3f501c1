package dev.taskgov.quota.auth;

import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedPostgres;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.sql.Array;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An append's look-up of its batch's ids reads the primary key's index, not the table, also while the planner's
 * figures for the table are out of date: the audit table grows from empty faster than autovacuum analyzes it, and a
 * look-up that read every row for every batch made storing quadratic in the table's size.
 * (The service runs so that its migrations made the real table this test's copy takes its shape from.)
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AuditAppendPlanTest {

    @Test
    void theLookUpOfABatchsIdsReadsTheIndexOfATableNeverAnalyzed() throws Exception {
        try (Connection c = connect(SharedPostgres.owner())) {
            c.setAutoCommit(false);
            try (Statement s = c.createStatement()) {
                // Shadows the real table within this transaction (the session's temporary schema is searched first):
                // its shape and indexes, 20,000 rows, and no statistics at all.
                s.execute("create temporary table audit_event (like public.audit_event including all) on commit drop");
                s.execute("insert into audit_event (event_id, at, service, principal, operation, outcome, chain, seq, "
                        + "prev_hash, hash) select 'e-' || n, now(), 'admission-service', 'p', 'SubmitWorkload', 'Allowed', "
                        + "'admission-service', n, 'h', 'h' from generate_series(1, 20000) n");
            }
            AuditTrail.preferIndexes(c);
            List<String> batch = new ArrayList<>();
            for (int i = 0; i < 500; i++) batch.add("id-" + i);
            assertThat(plan(c, batch)).as("plan of the look-up").contains("Index").doesNotContain("Seq Scan");
            c.rollback();
        }
    }

    private static String plan(Connection c, List<String> ids) throws SQLException {
        StringBuilder plan = new StringBuilder();
        try (PreparedStatement ps = c.prepareStatement("explain " + AuditTrail.STORED_IDS)) {
            Array array = c.createArrayOf("varchar", ids.toArray());
            ps.setArray(1, array);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) plan.append(rs.getString(1)).append('\n');
            }
        }
        return plan.toString();
    }

    private static Connection connect(DatabaseAddress address) throws SQLException {
        return DriverManager.getConnection(address.jdbcUrl(), address.username(), address.password());
    }
}
