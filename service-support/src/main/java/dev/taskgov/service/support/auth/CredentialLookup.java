package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.Principal;

import java.util.Optional;

/** Where a service finds an active access key: its principal and its secret (decrypted). */
@FunctionalInterface
public interface CredentialLookup {

    record Found(Principal principal, String secret) {
    }

    /** The active key with this id; empty when unknown or revoked. */
    Optional<Found> find(String accessKeyId);
}
