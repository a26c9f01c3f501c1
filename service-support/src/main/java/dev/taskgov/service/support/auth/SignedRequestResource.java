package dev.taskgov.service.support.auth;

import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

/**
 * A JAX-RS resource whose requests are SigV4-signed: the request's URI and headers, which the signature is verified
 * against ({@link HttpApiAccess}). A service using it indexes service-support, so that the fields are injected.
 */
public abstract class SignedRequestResource {

    @Context
    protected UriInfo uri;

    @Context
    protected HttpHeaders headers;
}
