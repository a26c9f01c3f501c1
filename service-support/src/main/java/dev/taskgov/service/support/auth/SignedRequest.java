package dev.taskgov.service.support.auth;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * An HTTP request as it arrived, for verification: the method, the path and query exactly as the client sent
 * them (still percent-encoded), every header, and the body.
 */
public record SignedRequest(String method, String rawPath, String rawQuery, Map<String, List<String>> headers, byte[] body) {

    private static final Pattern READ_OPERATION = Pattern.compile("(Describe|List|Get)[A-Z].*");

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

    /**
     * True when the request can change something: every method but {@code GET} and {@code HEAD}, except an AWS
     * JSON operation (named by the signed {@code X-Amz-Target}) that only reads ({@code Describe*}, {@code List*},
     * {@code Get*}). The method and the target are both covered by the signature, so a holder of the request
     * cannot turn one kind into the other.
     */
    public boolean changesState() {
        if (method.equalsIgnoreCase("GET") || method.equalsIgnoreCase("HEAD")) {
            return false;
        }
        String target = header("X-Amz-Target");
        if (target == null) {
            return true;
        }
        return !readsOnly(target.substring(target.lastIndexOf('.') + 1));
    }

    /**
     * Whether an AWS JSON operation only reads: its name is {@code Describe*}, {@code List*} or {@code Get*}. The one
     * rule for both the replay check here and which roles may call an operation (quota-service's access check).
     */
    public static boolean readsOnly(String operation) {
        return READ_OPERATION.matcher(operation).matches();
    }
}
