package dev.taskgov.service.support.auth;

import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.UriInfo;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A JAX-RS request as the {@link SigV4Verifier} reads it: the path and query as sent (still encoded), and the body
 * as the bytes that arrived. A body decoded to text first would verify against a different payload than was sent
 * (a raw 0xFF becomes U+FFFD, three other bytes), so endpoints take their body as {@code byte[]}.
 */
public final class HttpRequests {

    private HttpRequests() {
    }

    /** A body that arrived as bytes, as text for the endpoint once its signature is verified (null stays null). */
    public static String text(byte[] body) {
        return body == null ? null : new String(body, java.nio.charset.StandardCharsets.UTF_8);
    }

    public static SignedRequest of(String method, UriInfo uri, HttpHeaders headers, byte[] body) {
        Map<String, List<String>> all = new HashMap<>(headers.getRequestHeaders());
        if (headers.getHeaderString("Host") == null && uri.getRequestUri().getRawAuthority() != null) {
            // HTTP/2 (java.net.http upgrades to h2c) carries the host as :authority, not as a Host header.
            all.put("Host", List.of(uri.getRequestUri().getRawAuthority()));
        }
        return new SignedRequest(method, uri.getRequestUri().getRawPath(), uri.getRequestUri().getRawQuery(),
                all, body);
    }
}
