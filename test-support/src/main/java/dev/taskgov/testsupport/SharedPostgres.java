package dev.taskgov.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;

import dev.taskgov.service.support.db.DatabaseRoles;
import dev.taskgov.service.support.db.SecuredEmbeddedPostgres;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.postgresql.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The one real PostgreSQL of this test JVM, started on first use and kept until the JVM exits.
 *
 * <p>Chosen in this order: {@code TASKGOV_DB_URL} (with {@code TASKGOV_DB_USER} and
 * {@code TASKGOV_DB_PASSWORD}) if set; else a Testcontainers PostgreSQL when a Docker engine answers and
 * has the database's image ({@link ContainerTier}); else an embedded PostgreSQL (zonky binaries, a
 * temporary data folder, a free loopback port).
 *
 * <p>Its own database is secured as the local runtime's is ({@link DatabaseRoles}): random passwords, scram-sha-256
 * for every connection, quota-service's app role ({@link #address()}) apart from the owner role its migrations run
 * as ({@link #owner()}).
 */
public final class SharedPostgres {

    public static final String URL_ENV = "TASKGOV_DB_URL";
    public static final String USER_ENV = "TASKGOV_DB_USER";
    public static final String PASSWORD_ENV = "TASKGOV_DB_PASSWORD";
    public static final String MIGRATION_USER_ENV = "TASKGOV_DB_MIGRATION_USER";
    public static final String MIGRATION_PASSWORD_ENV = "TASKGOV_DB_MIGRATION_PASSWORD";

    private static volatile DatabaseAddress address;
    private static volatile DatabaseAddress owner;
    private static volatile DatabaseAddress superuser;

    private SharedPostgres() {
    }

    /** The database's JDBC address and credentials; starts the database on first call. */
    public static DatabaseAddress address() {
        started();
        return address;
    }

    /** The role that owns the schema: quota-service's migrations run as it (the same as {@link #address()} from the environment, unless TASKGOV_DB_MIGRATION_USER is set). */
    public static DatabaseAddress owner() {
        started();
        return owner;
    }

    /** The cluster's superuser (this JVM's own database only; empty from the environment). */
    public static java.util.Optional<DatabaseAddress> superuser() {
        started();
        return java.util.Optional.ofNullable(superuser);
    }

    private static void started() {
        if (address == null) {
            synchronized (SharedPostgres.class) {
                if (address == null) {
                    start();
                }
            }
        }
    }

    private static void start() {
        String url = System.getenv(URL_ENV);
        if (url != null && !url.isBlank()) {
            DatabaseAddress app = new DatabaseAddress(url.trim(), envOr(USER_ENV, "postgres"), envOr(PASSWORD_ENV, ""),
                    Source.ENVIRONMENT);
            owner = System.getenv(MIGRATION_USER_ENV) == null ? app : new DatabaseAddress(app.jdbcUrl(),
                    System.getenv(MIGRATION_USER_ENV), envOr(MIGRATION_PASSWORD_ENV, ""), Source.ENVIRONMENT);
            address = app;
            return;
        }
        // Once per JVM, not per class loader (JvmWide): every Quarkus application of a test JVM shares it.
        Map<String, String> started = JvmWide.startOnce("postgres", SharedPostgres::startOwn);
        Source source = Source.valueOf(started.get("source"));
        String jdbcUrl = started.get("url");
        owner = new DatabaseAddress(jdbcUrl, DatabaseRoles.OWNER, started.get(DatabaseRoles.OWNER), source);
        superuser = new DatabaseAddress(jdbcUrl, DatabaseRoles.SUPERUSER, started.get(DatabaseRoles.SUPERUSER), source);
        address = new DatabaseAddress(jdbcUrl, DatabaseRoles.QUOTA, started.get(DatabaseRoles.QUOTA), source);
    }

    private static Map<String, String> startOwn() {
        Map<String, String> passwords = DatabaseRoles.newPasswords();
        boolean container = ContainerTier.unavailableFor(ContainerTier.POSTGRES_IMAGE, "PostgreSQL").isEmpty();
        String hostPort = container ? startContainer(passwords) : startEmbedded(passwords);
        Map<String, String> started = new java.util.HashMap<>(passwords);
        started.put("url", DatabaseRoles.url(hostPort));
        started.put("source", (container ? Source.TESTCONTAINERS : Source.EMBEDDED).name());
        return Map.copyOf(started);
    }

    /** Starts the container; answers its host:port, provisioned like the local runtime's database. */
    private static String startContainer(Map<String, String> passwords) {
        // taskgov/postgres initialises its database once, before the server it logs as ready.
        PostgreSQLContainer container = new PostgreSQLContainer(
                DockerImageName.parse(ContainerTier.POSTGRES_IMAGE).asCompatibleSubstituteFor("postgres"));
        container.withUsername(DatabaseRoles.SUPERUSER).withPassword(passwords.get(DatabaseRoles.SUPERUSER));
        container.waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\s", 1));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-container-stop"));
        String hostPort = container.getHost() + ":" + container.getMappedPort(5432);
        try {
            // The image's pg_hba already asks every TCP connection for its password.
            DatabaseRoles.provision(hostPort, passwords, null);
        } catch (SQLException | IOException e) {
            throw new IllegalStateException("could not provision the PostgreSQL container's roles", e);
        }
        return hostPort;
    }

    /** Starts the embedded database; answers its host:port, secured like the local runtime's. */
    private static String startEmbedded(Map<String, String> passwords) {
        try {
            Path dataDir = Files.createTempDirectory("taskgov-test-pg");
            // zonky stops the postmaster in its own shutdown hook and deletes the data folder.
            EmbeddedPostgres postgres = SecuredEmbeddedPostgres.builder(dataDir, passwords)
                    .setCleanDataDirectory(true)
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .start();
            String hostPort = "127.0.0.1:" + postgres.getPort();
            DatabaseRoles.provision(hostPort, passwords, dataDir.resolve("pg_hba.conf"));
            return hostPort;
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("could not start the embedded PostgreSQL", e);
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
