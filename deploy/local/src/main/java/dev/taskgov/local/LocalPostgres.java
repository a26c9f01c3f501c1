package dev.taskgov.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.taskgov.service.support.db.DatabaseRoles;
import dev.taskgov.service.support.db.SecuredEmbeddedPostgres;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * An embedded PostgreSQL (zonky binaries, no installation) for the local runtime, with a persistent
 * data directory: a second start reuses the data. Every login needs its password (scram-sha-256): the roles and
 * their generated passwords are {@link DatabaseRoles}', kept in an owner-only credentials file.
 *
 * <p>Usage: {@code LocalPostgres <data-dir> <port> <credentials-file>}. Runs until the process is terminated
 * (SIGTERM); the shutdown hook stops the postmaster cleanly.
 */
public final class LocalPostgres {

    static final String DATABASE = DatabaseRoles.DATABASE;

    private LocalPostgres() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 3) {
            System.err.println("usage: LocalPostgres <data-dir> <port> <credentials-file>");
            System.exit(2);
        }
        Path dataDir = Path.of(args[0]).toAbsolutePath();
        int port = Integer.parseInt(args[1]);
        Path credentials = Path.of(args[2]).toAbsolutePath();
        EmbeddedPostgres postgres = start(dataDir, port, credentials);
        System.out.println("taskgov postgres ready: " + DatabaseRoles.url("127.0.0.1:" + port) + " (roles "
                + DatabaseRoles.OWNER + ", " + DatabaseRoles.QUOTA + "; passwords in " + credentials + ")");
        new CountDownLatch(1).await();
        postgres.close();
    }

    /** Starts (making it on first start) the secured cluster in this data directory, its roles provisioned. */
    static EmbeddedPostgres start(Path dataDir, int port, Path credentials) throws IOException, SQLException {
        Map<String, String> passwords = DatabaseRoles.passwords(credentials);
        Files.createDirectories(dataDir);
        EmbeddedPostgres postgres = SecuredEmbeddedPostgres.builder(dataDir, passwords)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("max_connections", "100")
                // The embedded server's library starts PostgreSQL with fsync and synchronous_commit off (right for
                // throwaway test data). This database is the system of record: a quota change answered to its caller,
                // or an audit record whose topic offset was committed after it was stored, must outlive a crash of
                // the server or of the machine, so every commit waits for its write-ahead log on disk.
                .setServerConfig("fsync", "on")
                .setServerConfig("synchronous_commit", "on")
                .setRegisterShutdownHook(true)
                .start();
        DatabaseRoles.provision("127.0.0.1:" + port, passwords, dataDir.resolve("pg_hba.conf"));
        return postgres;
    }
}
