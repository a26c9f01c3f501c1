package dev.taskgov.quota.auth;

import dev.taskgov.service.support.auth.SigV4Verifier;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;

/** The SigV4 verifier of this service, over the access keys in its own database. */
@ApplicationScoped
public class Verification {

    @Produces
    @ApplicationScoped
    SigV4Verifier verifier(AccessKeys keys, Clock clock) {
        return new SigV4Verifier(keys, clock);
    }
}
