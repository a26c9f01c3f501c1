package dev.taskgov.quota.auth;

import dev.taskgov.service.support.auth.AccessGuard;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

/**
 * A quota-service resource outside the SageMaker API (credentials, audit, what-if): its requests are verified and
 * authorised by the {@link AccessGuard} against the request's URI and headers.
 */
public abstract class GuardedResource {

    @Inject
    protected AccessGuard guard;

    @Context
    protected HttpHeaders headers;

    @Context
    protected UriInfo uri;
}
