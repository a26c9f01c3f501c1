package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedPostgres;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The database trusts only the logins its operator was given: the real PostgreSQL the tests share is secured as the
 * local runtime's is (generated passwords, scram-sha-256 only, quota-service's app role apart from the owner role its
 * migrations run as), and an access key's secret is sealed to its principal and roles, so that a row changed in the
 * table stops working instead of granting more.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class DatabaseTrustTest {

    @TestHTTPResource("/")
    URL service;

    @Inject
    AccessKeys accessKeys;

    @Test
    void aLoginWithoutItsGeneratedPasswordIsRefused() {
        DatabaseAddress app = SharedPostgres.address();
        for (String[] login : List.of(new String[] {"postgres", "postgres"}, new String[] {"postgres", ""},
                new String[] {app.username(), "postgres"}, new String[] {app.username(), ""},
                new String[] {SharedPostgres.owner().username(), app.password()})) {
            assertThatThrownBy(() -> DriverManager.getConnection(app.jdbcUrl(), login[0], login[1]).close())
                    .as("login as %s with password '%s'", login[0], login[1])
                    .isInstanceOf(SQLException.class)
                    // 28P01: wrong password; 08004: the server asked for SCRAM and the client had no password to give.
                    .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("28P01", "28000", "08004"));
        }
    }

    @Test
    void noConnectionIsTrustedForItsAddressOrOsUser() throws Exception {
        DatabaseAddress superuser = SharedPostgres.superuser().orElseThrow();
        try (Connection c = connect(superuser); Statement s = c.createStatement();
             ResultSet rules = s.executeQuery("select type, database, user_name, auth_method from pg_hba_file_rules")) {
            int count = 0;
            while (rules.next()) {
                count++;
                assertThat(rules.getString("auth_method")).as("pg_hba line %s %s %s", rules.getString("type"),
                        rules.getString("database"), rules.getString("user_name")).isEqualTo("scram-sha-256");
            }
            assertThat(count).isPositive();
        }
    }

    @Test
    void theAppRoleCannotRewriteTheAuditTrailNorAnAccessKeysIdentity() throws Exception {
        TestCredentials.Key key = TestCredentials.inDatabase("trust-viewer-" + System.nanoTime(), "viewer");
        // a right is checked before any row is looked at: the statements are refused whatever the table holds
        try (Connection app = connect(SharedPostgres.address())) {
            for (String statement : List.of(
                    "update audit_event set outcome = 'Allowed'",
                    "delete from audit_event",
                    "truncate audit_event",
                    "update access_key set roles = 'admin' where access_key_id = '" + key.accessKeyId() + "'",
                    "update access_key set principal = 'admin' where access_key_id = '" + key.accessKeyId() + "'",
                    "delete from access_key where access_key_id = '" + key.accessKeyId() + "'",
                    "delete from flyway_schema_history",
                    "create table intruder (id int)")) {
                assertThatThrownBy(() -> {
                    try (Statement s = app.createStatement()) {
                        s.execute(statement);
                    }
                }).as(statement).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).as(statement).isEqualTo("42501"));
            }
        }
    }

    @Test
    void aKeyWhoseRolesWereChangedInTheTableNoLongerAuthenticates() throws Exception {
        TestCredentials.Key key = TestCredentials.inDatabase("trust-escalating-" + System.nanoTime(), "viewer");
        URI audit = uri("/audit?principal=nobody");
        URI credentials = uri("/credentials");
        assertThat(TestCredentials.send(key, "GET", audit, null).statusCode()).isEqualTo(200);
        assertThat(TestCredentials.send(key, "GET", credentials, null).statusCode()).isEqualTo(403);

        // Whoever can write the table (here its owner) makes the viewer an admin.
        try (Connection owner = connect(SharedPostgres.owner());
             PreparedStatement update = owner.prepareStatement("update access_key set roles = 'admin' where access_key_id = ?")) {
            update.setString(1, key.accessKeyId());
            assertThat(update.executeUpdate()).isEqualTo(1);
        }

        assertUnrecognized(TestCredentials.send(key, "GET", credentials, null));
        assertUnrecognized(TestCredentials.send(key, "GET", audit, null));
    }

    @Test
    void aKeyStoredBeforeSecretsWereBoundIsResealedByTheServiceAndThenBound() throws Exception {
        String id = AccessKey.newKeyId();
        String secret = AccessKey.newSecret();
        String principal = "trust-old-" + System.nanoTime();
        try (Connection app = connect(SharedPostgres.address());
             PreparedStatement insert = app.prepareStatement("insert into access_key (access_key_id, principal, roles,"
                     + " secret_ciphertext, created_at, created_by) values (?, ?, 'viewer', ?, ?, 'test')")) {
            insert.setString(1, id);
            insert.setString(2, principal);
            insert.setString(3, SecretBox.of(TestCredentials.MASTER_KEY).encryptKeyIdOnly(id, secret));
            insert.setTimestamp(4, Timestamp.from(Instant.now()));
            insert.executeUpdate();
        }
        TestCredentials.Key key = new TestCredentials.Key(id, secret, principal, List.of("viewer"));
        URI audit = uri("/audit?principal=nobody");
        assertUnrecognized(TestCredentials.send(key, "GET", audit, null));

        assertThat(accessKeys.resealKeyIdOnlyKeys()).isGreaterThanOrEqualTo(1);

        assertThat(TestCredentials.send(key, "GET", audit, null).statusCode()).isEqualTo(200);
        try (Connection owner = connect(SharedPostgres.owner());
             PreparedStatement update = owner.prepareStatement("update access_key set roles = 'admin' where access_key_id = ?")) {
            update.setString(1, id);
            update.executeUpdate();
        }
        assertUnrecognized(TestCredentials.send(key, "GET", uri("/credentials"), null));
    }

    /** Refused as a key that does not exist is: nothing tells the caller that the row is there. */
    private static void assertUnrecognized(java.net.http.HttpResponse<String> response) {
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(response.body()).contains("UnrecognizedClientException");
    }

    private URI uri(String path) {
        return URI.create("http://localhost:" + service.getPort() + path);
    }

    private static Connection connect(DatabaseAddress address) throws SQLException {
        return DriverManager.getConnection(address.jdbcUrl(), address.username(), address.password());
    }
}
