package dev.taskgov.local;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import dev.taskgov.service.support.db.DatabaseRoles;
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
        EmbeddedPostgres postgres = securedEmbedded(dataDir, passwords)
                .setCleanDataDirectory(false)
                .setPort(port)
                .setServerConfig("max_connections", "100")
                .setRegisterShutdownHook(true)
                .start();
        DatabaseRoles.provision("127.0.0.1:" + port, passwords, dataDir.resolve("pg_hba.conf"));
        return postgres;
    }

    /**
     * An embedded PostgreSQL in this data directory whose superuser has its password from the start: a new cluster is
     * made by initdb with that password and scram-sha-256 for every connection (zonky passes these options after its
     * own {@code -A trust}, and initdb takes the last), so no moment exists in which it trusts anyone. A data
     * directory made before is secured by {@link DatabaseRoles#provision} once it runs.
     */
    static EmbeddedPostgres.Builder securedEmbedded(Path dataDir, Map<String, String> passwords) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setConnectConfig("password", passwords.get(DatabaseRoles.SUPERUSER));
        if (!Files.exists(dataDir.resolve("postgresql.conf"))) {
            Path pwfile = Files.createTempFile("taskgov-pg", ".pw");
            DatabaseRoles.writePrivately(pwfile, passwords.get(DatabaseRoles.SUPERUSER) + "\n");
            pwfile.toFile().deleteOnExit();
            builder.setLocaleConfig("auth-host", "scram-sha-256")
                    .setLocaleConfig("auth-local", "scram-sha-256")
                    .setLocaleConfig("pwfile", pwfile.toString());
        }
        return builder;
    }
}
