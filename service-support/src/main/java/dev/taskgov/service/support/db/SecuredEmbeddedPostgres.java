package dev.taskgov.service.support.db;

import dev.taskgov.service.support.PrivateFiles;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * How the local runtime (LocalPostgres) and the tests (SharedPostgres) start an embedded PostgreSQL: in its own class,
 * apart from {@link DatabaseRoles}, because only they have the embedded server's library (an optional dependency here).
 */
public final class SecuredEmbeddedPostgres {

    private SecuredEmbeddedPostgres() {
    }

    /**
     * An embedded PostgreSQL in this data directory whose superuser has its password from the start: a new cluster is
     * made by initdb with that password and scram-sha-256 for every connection (zonky passes these options after its
     * own {@code -A trust}, and initdb takes the last), so no moment exists in which it trusts anyone. A data
     * directory made before is secured by {@link DatabaseRoles#provision} once it runs.
     */
    public static EmbeddedPostgres.Builder builder(Path dataDir, Map<String, String> passwords) throws IOException {
        EmbeddedPostgres.Builder builder = EmbeddedPostgres.builder()
                .setDataDirectory(dataDir)
                .setServerConfig("listen_addresses", "127.0.0.1")
                .setServerConfig("password_encryption", "scram-sha-256")
                .setConnectConfig("password", passwords.get(DatabaseRoles.SUPERUSER));
        if (!Files.exists(dataDir.resolve("postgresql.conf"))) {
            Path pwfile = Files.createTempFile("taskgov-pg", ".pw");
            PrivateFiles.write(pwfile, passwords.get(DatabaseRoles.SUPERUSER) + "\n");
            pwfile.toFile().deleteOnExit();
            builder.setLocaleConfig("auth-host", "scram-sha-256")
                    .setLocaleConfig("auth-local", "scram-sha-256")
                    .setLocaleConfig("pwfile", pwfile.toString());
        }
        return builder;
    }
}
