package dev.taskgov.service.support.auth;

import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.ext.ExceptionMapper;
import jakarta.ws.rs.ext.Provider;

/**
 * Answers a request the {@link AccessGuard} refused (unsigned, badly signed, or not allowed to its principal) with the
 * refusal's status and AWS-style error body, in every plain HTTP service that indexes service-support
 * ({@link HttpApiAccess}).
 */
@Provider
public class AuthFailureMapper implements ExceptionMapper<AuthFailure> {

    @Override
    public Response toResponse(AuthFailure e) {
        return AccessGuard.response(e);
    }
}
