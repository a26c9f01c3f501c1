package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.SecretBox;
import io.smallrye.config.WithDefault;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Access control settings, the config group {@code taskgov.auth.*} of every HTTP service: where the master key that
 * encrypts access-key secrets comes from. It is never in the repository: the local runtime generates
 * {@code $TASKGOV_HOME/master.key} on first start; elsewhere give {@code TASKGOV_AUTH_MASTER_KEY} (base64 of 32
 * random bytes) or {@code TASKGOV_AUTH_MASTER_KEY_FILE}.
 */
public interface AuthConfig {

    /** The master key itself, base64 (environment {@code TASKGOV_AUTH_MASTER_KEY}); wins over the file. */
    Optional<String> masterKey();

    /** A file holding the master key, base64 (environment {@code TASKGOV_AUTH_MASTER_KEY_FILE}). */
    @WithDefault("${TASKGOV_HOME:.taskgov}/master.key")
    String masterKeyFile();

    /**
     * quota-service only: when no active admin key exists, make one on start and write it as section {@code [admin]}
     * of this profile file (the local runtime sets {@code $TASKGOV_HOME/credentials}). Unset: no key is made.
     */
    Optional<String> bootstrapProfile();

    /** The box that encrypts and decrypts secrets with the configured master key; a clear error when there is none. */
    default SecretBox secretBox() {
        if (masterKey().isPresent() && !masterKey().get().isBlank()) {
            return SecretBox.of(masterKey().get());
        }
        Path file = Path.of(masterKeyFile());
        try {
            return SecretBox.of(Files.readString(file));
        } catch (IOException e) {
            throw new IllegalStateException("taskgov.auth: no master key: " + file.toAbsolutePath() + " cannot be read ("
                    + e.getMessage() + "); set TASKGOV_AUTH_MASTER_KEY (base64 of 32 random bytes) or "
                    + "TASKGOV_AUTH_MASTER_KEY_FILE (the local runtime creates $TASKGOV_HOME/master.key on first start)", e);
        }
    }
}
