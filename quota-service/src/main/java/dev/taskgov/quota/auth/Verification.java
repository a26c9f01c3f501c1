package dev.taskgov.quota.auth;

import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.SigV4Verifier;
import jakarta.ws.rs.core.Response;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;

import java.time.Clock;

/**
 * The SigV4 verifier of this service, over the access keys in its own database, and the guard of its plain HTTP
 * endpoints ({@code /credentials}, {@code /audit}), which records into its own audit trail.
 */
@ApplicationScoped
public class Verification {

    @Produces
    @ApplicationScoped
    SigV4Verifier verifier(AccessKeys keys, Clock clock) {
        return new SigV4Verifier(keys, clock);
    }

    @Produces
    @ApplicationScoped
    AccessGuard guard(SigV4Verifier verifier, AuditTrail audit, Clock clock) {
        return new AccessGuard(verifier, audit::storeNew, AuditTrail.SERVICE, clock);
    }

    /** A refusal of the plain HTTP endpoints (the SageMaker API answers its own, in its shape). */
    @ServerExceptionMapper
    public Response refused(AuthFailure e) {
        return AccessGuard.response(e);
    }
}
