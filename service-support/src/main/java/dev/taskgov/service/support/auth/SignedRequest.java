package dev.taskgov.service.support.auth;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An HTTP request as it arrived, for verification: the method, the path and query exactly as the client sent
 * them (still percent-encoded), every header, and the body.
 */
public record SignedRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {

    public SignedRequest {
        TreeMap<String, List<String>> h = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        headers.forEach((k, v) -> h.put(k, List.copyOf(v)));
        headers = h;
        body = body == null ? new byte[0] : body;
    }

    /** The first value of a header (case-insensitive), or null. */
    public String header(String name) {
        List<String> v = headers.get(name);
        return v == null || v.isEmpty() ? null : v.get(0);
    }
}
