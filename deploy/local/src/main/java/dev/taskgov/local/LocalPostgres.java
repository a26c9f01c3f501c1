package dev.taskgov.local;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * An embedded PostgreSQL (zonky binaries, no installation) for the local runtime, with a persistent
 * data directory: a second start reuses the data. Creates the {@code taskgov} database on first start.
 *
 * <p>Usage: {@code LocalPostgres <data-dir> <port>}. Runs until the process is terminated (SIGTERM);
 * the shutdown hook stops the postmaster cleanly.
 */
public final class LocalPostgres {

    static final String DATABASE = "taskgov";

    private LocalPostgres() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: LocalPostgres <data-dir> <port>");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        Files.createDirectories(dataDir);
        EmbeddedPostgres postgres = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("max_connections", "100")
                .setRegisterShutdownHook(true)
                .start();
        createDatabaseIfMissing(port);
        System.out.println("taskgov postgres ready: jdbc:postgresql://127.0.0.1:" + port + "/" + DATABASE
                + " (user postgres)");
        new CountDownLatch(1).await();
        postgres.close();
    }

    private static void createDatabaseIfMissing(int port) throws Exception {
        String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres";
        try (Connection connection = DriverManager.getConnection(url, "postgres", "postgres");
             Statement statement = connection.createStatement()) {
            try (ResultSet existing = statement.executeQuery(
                    "select 1 from pg_database where datname = '" + DATABASE + "'")) {
                if (existing.next()) {
                    return;
                }
            }
            statement.executeUpdate("create database " + DATABASE);
        }
    }
}
