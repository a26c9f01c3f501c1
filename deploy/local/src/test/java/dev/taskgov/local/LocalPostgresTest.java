package dev.taskgov.local;

import dev.taskgov.service.support.db.DatabaseRoles;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The local runtime's database, made before it was secured (initdb's {@code trust}, the tables the superuser's):
 * its next start leaves no trust line, sets the generated passwords, hands the tables to the owner role, and a
 * restart after that logs in with the same passwords.
 */
class LocalPostgresTest {

    @TempDir
    Path home;

    @Test
    void aClusterMadeWithTrustIsSecuredAtItsNextStartAndKeepsItsPasswordsAfter() throws Exception {
        Path data = home.resolve("postgres");
        Path credentials = home.resolve("database/credentials.properties");
        int port = freePort();
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/";
        try (EmbeddedPostgres before = EmbeddedPostgres.builder().setDataDirectory(data).setCleanDataDirectory(false)
                .setPort(port).setServerConfig("listen_addresses", "127.0.0.1").start()) {
            try (Connection c = DriverManager.getConnection(url + "postgres", "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute("create database taskgov");
            }
            try (Connection c = DriverManager.getConnection(url + "taskgov", "postgres", "");
                 Statement s = c.createStatement()) {
                s.execute("create table audit_event (event_id varchar(64) primary key)");
            }
        }

        try (EmbeddedPostgres secured = LocalPostgres.start(data, port, credentials)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(credentials))).isEqualTo("rw-------");
            Properties logins = new Properties();
            try (var in = Files.newBufferedReader(credentials)) {
                logins.load(in);
            }
            for (String[] login : new String[][] {{"postgres", "postgres"}, {"postgres", ""}, {"taskgov_quota", "x"}}) {
                assertThatThrownBy(() -> DriverManager.getConnection(url + "taskgov", login[0], login[1]).close())
                        .as("login as %s with '%s'", login[0], login[1]).isInstanceOf(SQLException.class)
                        .satisfies(e -> assertThat(((SQLException) e).getSQLState()).isIn("28P01", "08004"));
            }
            try (Connection c = DriverManager.getConnection(url + "taskgov", "postgres", logins.getProperty("postgres"));
                 Statement s = c.createStatement()) {
                try (ResultSet r = s.executeQuery("select count(*) from pg_hba_file_rules where auth_method <> 'scram-sha-256'")) {
                    r.next();
                    assertThat(r.getInt(1)).as("pg_hba lines other than scram-sha-256").isZero();
                }
                try (ResultSet r = s.executeQuery("select tableowner from pg_tables where tablename = 'audit_event'")) {
                    r.next();
                    assertThat(r.getString(1)).isEqualTo(DatabaseRoles.OWNER);
                }
            }
        }

        Map<String, String> passwords = DatabaseRoles.passwords(credentials);
        try (EmbeddedPostgres again = LocalPostgres.start(data, port, credentials);
             Connection owner = DriverManager.getConnection(url + "taskgov", DatabaseRoles.OWNER, passwords.get(DatabaseRoles.OWNER))) {
            assertThat(owner.isValid(5)).isTrue();
        }
    }

    @Test
    void everyCommitOfTheLocalRuntimesDatabaseIsOnDiskBeforeItIsAnswered() throws Exception {
        int port = freePort();
        Path credentials = home.resolve("database/credentials.properties");
        try (EmbeddedPostgres postgres = LocalPostgres.start(home.resolve("postgres"), port, credentials);
             Connection c = DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/taskgov", "postgres",
                     DatabaseRoles.passwords(credentials).get(DatabaseRoles.SUPERUSER));
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("select name, setting from pg_settings "
                     + "where name in ('fsync', 'synchronous_commit', 'full_page_writes') order by name")) {
            Map<String, String> settings = new java.util.TreeMap<>();
            while (r.next()) settings.put(r.getString(1), r.getString(2));
            assertThat(settings).containsExactlyEntriesOf(new java.util.TreeMap<>(
                    Map.of("fsync", "on", "full_page_writes", "on", "synchronous_commit", "on")));
        }
    }

    private static int freePort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
