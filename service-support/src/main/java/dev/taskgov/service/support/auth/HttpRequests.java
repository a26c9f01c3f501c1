package dev.taskgov.service.support.auth;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A JAX-RS request as the {@link SigV4Verifier} reads it: the path and query as sent (still encoded). */
public final class HttpRequests {

    private HttpRequests() {
    }

    public static SignedRequest of(String method, UriInfo uri, HttpHeaders headers, String body) {
        Map<String, List<String>> all = new HashMap<>(headers.getRequestHeaders());
        if (headers.getHeaderString("Host") == null && uri.getRequestUri().getRawAuthority() != null) {
            // HTTP/2 (java.net.http upgrades to h2c) carries the host as :authority, not as a Host header.
            all.put("Host", List.of(uri.getRequestUri().getRawAuthority()));
        }
        return new SignedRequest(method, uri.getRequestUri().getRawPath(), uri.getRequestUri().getRawQuery(),
                all, body == null ? null : body.getBytes(StandardCharsets.UTF_8));
    }
}
