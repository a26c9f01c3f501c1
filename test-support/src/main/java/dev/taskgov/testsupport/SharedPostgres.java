package dev.taskgov.testsupport;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

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
 */
public final class SharedPostgres {

    public static final String URL_ENV = "TASKGOV_DB_URL";
    public static final String USER_ENV = "TASKGOV_DB_USER";
    public static final String PASSWORD_ENV = "TASKGOV_DB_PASSWORD";

    private static volatile DatabaseAddress address;

    private SharedPostgres() {
    }

    /** The database's JDBC address and credentials; starts the database on first call. */
    public static DatabaseAddress address() {
        if (address == null) {
            synchronized (SharedPostgres.class) {
                if (address == null) {
                    address = start();
                }
            }
        }
        return address;
    }

    private static DatabaseAddress start() {
        String url = System.getenv(URL_ENV);
        if (url != null && !url.isBlank()) {
            return new DatabaseAddress(url.trim(), envOr(USER_ENV, "postgres"), envOr(PASSWORD_ENV, ""),
                    Source.ENVIRONMENT);
        }
        // Once per JVM, not per class loader (JvmWide): every Quarkus application of a test JVM shares it.
        Map<String, String> started = JvmWide.startOnce("postgres", SharedPostgres::startOwn);
        return new DatabaseAddress(started.get("url"), started.get("user"), started.get("password"),
                Source.valueOf(started.get("source")));
    }

    private static Map<String, String> startOwn() {
        DatabaseAddress own = ContainerTier.unavailableFor(ContainerTier.POSTGRES_IMAGE, "PostgreSQL").isEmpty()
                ? startContainer() : startEmbedded();
        return Map.of("url", own.jdbcUrl(), "user", own.username(), "password", own.password(),
                "source", own.source().name());
    }

    private static DatabaseAddress startContainer() {
        // taskgov/postgres initialises its database once, before the server it logs as ready.
        PostgreSQLContainer container = new PostgreSQLContainer(
                DockerImageName.parse(ContainerTier.POSTGRES_IMAGE).asCompatibleSubstituteFor("postgres"));
        container.waitingFor(Wait.forLogMessage(".*database system is ready to accept connections.*\\s", 1));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "postgres-container-stop"));
        return new DatabaseAddress(container.getJdbcUrl(), container.getUsername(), container.getPassword(),
                Source.TESTCONTAINERS);
    }

    private static DatabaseAddress startEmbedded() {
        try {
            Path dataDir = Files.createTempDirectory("taskgov-test-pg");
            // zonky stops the postmaster in its own shutdown hook and deletes the data folder.
            EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                    .setDataDirectory(dataDir)
                    .setCleanDataDirectory(true)
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("fsync", "off")
                    .setServerConfig("synchronous_commit", "off")
                    .start();
            String jdbcUrl = "jdbc:postgresql://127.0.0.1:" + postgres.getPort() + "/postgres";
            return new DatabaseAddress(jdbcUrl, "postgres", "postgres", Source.EMBEDDED);
        } catch (IOException e) {
            throw new IllegalStateException("could not start the embedded PostgreSQL", e);
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }
}
