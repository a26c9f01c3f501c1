package dev.taskgov.quota;

import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedPostgres;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The chain lives in the database, not in a service instance: this class runs under a test profile of its own, so
 * Quarkus starts a new application for it on the database the run's other instances wrote; and here a second writer
 * (this test, over JDBC, appending as another instance would) takes a turn between two of the service's records. The
 * service appends after whatever head it finds, and the whole chain verifies.
 */
@QuarkusTest
@TestProfile(AuditChainRestartTest.NewInstance.class)
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AuditChainRestartTest {

    public static class NewInstance implements QuarkusTestProfile {
    }

    @TestHTTPResource("/")
    URL service;

    @Test
    void aNewInstanceContinuesTheChainItFinds() throws Exception {
        DatabaseAddress db = SharedPostgres.address();
        try (Connection c = DriverManager.getConnection(db.jdbcUrl(), db.username(), db.password());
             Statement st = c.createStatement()) {
            // Whatever an earlier instance left (a refusal written now if none did, to have a head to continue).
            TestCredentials.send(null, "DELETE", URI.create("http://localhost:" + service.getPort() + "/credentials/before"), null);
            long seq;
            String hash;
            try (ResultSet rs = st.executeQuery("select seq, hash from audit_chain_head where chain = 'quota-service'")) {
                assertThat(rs.next()).isTrue();
                seq = rs.getLong(1);
                hash = rs.getString(2);
            }
            // Another writer appends one record, taking the head's lock as an instance does.
            c.setAutoCommit(false);
            String other = "other-instance-" + java.util.UUID.randomUUID();
            String at = java.time.Instant.now().truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString();
            try (ResultSet rs = st.executeQuery("select seq, hash from audit_chain_head where chain = 'quota-service' for update")) {
                rs.next();
                seq = rs.getLong(1) + 1;
                String prev = rs.getString(2);
                hash = dev.taskgov.core.auth.AuditChain.hash(prev, seq, other, at, "quota-service", "anonymous",
                        "RevokeAccessKey", "other", "Refused: test", null, null);
                st.executeUpdate("insert into audit_event (event_id, at, service, principal, operation, target, outcome, chain, "
                        + "seq, prev_hash, hash) values ('" + other + "', '" + at + "', 'quota-service', 'anonymous', "
                        + "'RevokeAccessKey', 'other', 'Refused: test', 'quota-service', " + seq + ", '" + prev + "', '" + hash + "')");
                st.executeUpdate("update audit_chain_head set seq = " + seq + ", hash = '" + hash + "' where chain = 'quota-service'");
            }
            c.commit();
            c.setAutoCommit(true);
            TestCredentials.send(null, "DELETE", URI.create("http://localhost:" + service.getPort() + "/credentials/after-restart"), null);
            try (ResultSet rs = st.executeQuery("select seq, prev_hash from audit_event where chain = 'quota-service' "
                    + "and target = 'after-restart' order by seq desc limit 1")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(seq + 1);
                assertThat(rs.getString(2)).isEqualTo(hash);
            }
        }
        var verify = JSON.readTree(TestCredentials.send(QuotaTestKit.admin(), "GET",
                URI.create("http://localhost:" + service.getPort() + "/audit/verify"), null).body());
        assertThat(verify.path("intact").asBoolean()).as(verify.toString()).isTrue();
    }
}
