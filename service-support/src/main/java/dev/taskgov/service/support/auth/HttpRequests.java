package dev.taskgov.service.support.auth;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

import java.nio.charset.StandardCharsets;

/** A JAX-RS request as the {@link SigV4Verifier} reads it: the path and query as sent (still encoded). */
public final class HttpRequests {

    private HttpRequests() {
    }

    public static SignedRequest of(String method, UriInfo uri, HttpHeaders headers, String body) {
        return new SignedRequest(method, uri.getRequestUri().getRawPath(), uri.getRequestUri().getRawQuery(),
                headers.getRequestHeaders(), body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }
}
