package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.JsonNode;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.Iterator;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads the members of an AWS JSON request, refusing bad values with a {@link AwsApiException#validation}
 * whose message names the member and the rule.
 */
public final class RequestFields {

    /** {@code Name} of a compute quota or scheduler config. */
    public static final Pattern RESOURCE_NAME = Pattern.compile("[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}");
    /** {@code ClusterArn} of a HyperPod cluster. */
    public static final Pattern CLUSTER_ARN = dev.taskgov.core.cluster.ClusterArn.PATTERN;
    /** {@code ComputeQuotaId} and {@code ClusterSchedulerConfigId}. */
    public static final Pattern RESOURCE_ID = Pattern.compile("[a-z0-9]{12}");

    private RequestFields() {
    }

    /** Refuses members the operation does not define (e.g. {@code vcpu} for {@code VCpu}). */
    public static void onlyKnown(JsonNode body, String path, Set<String> known) {
        if (body == null || !body.isObject()) {
            return;
        }
        for (Iterator<String> it = body.fieldNames(); it.hasNext(); ) {
            String name = it.next();
            if (!known.contains(name)) {
                String hint = known.stream().filter(k -> k.equalsIgnoreCase(name)).findFirst()
                        .map(k -> "; did you mean " + k + "?").orElse("");
                throw AwsApiException.validation(prefixed(path, name) + ": unknown member" + hint
                        + " Known members: " + known);
            }
        }
    }

    public static JsonNode requiredObject(JsonNode body, String path, String field) {
        return required(optionalObject(body, path, field), prefixed(path, field));
    }

    public static JsonNode optionalObject(JsonNode body, String path, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isObject()) {
            throw AwsApiException.validation(prefixed(path, field) + ": must be an object");
        }
        return n;
    }

    public static String requiredString(JsonNode body, String field, Pattern pattern, int maxLength) {
        return required(optionalString(body, field, pattern, maxLength), field);
    }

    public static String optionalString(JsonNode body, String field, Pattern pattern, int maxLength) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isTextual()) {
            throw AwsApiException.validation(field + ": must be a string, was " + n);
        }
        String s = n.asText();
        if (s.length() > maxLength) {
            throw AwsApiException.validation(field + ": must be at most " + maxLength + " characters, was " + s.length());
        }
        if (pattern != null && !pattern.matcher(s).matches()) {
            throw AwsApiException.validation(field + ": must match " + pattern.pattern() + ", was '" + s + "'");
        }
        return s;
    }

    public static Integer optionalInt(JsonNode body, String field, int min, int max) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        if (!n.isIntegralNumber() || !n.canConvertToInt()) {
            throw AwsApiException.validation(field + ": must be a whole number in " + min + ".." + max + ", was " + n);
        }
        int v = n.intValue();
        if (v < min || v > max) {
            throw AwsApiException.validation(field + ": must be in " + min + ".." + max + ", was " + v);
        }
        return v;
    }

    public static int requiredInt(JsonNode body, String field, int min, int max) {
        return required(optionalInt(body, field, min, max), field);
    }

    /** A required member's value: ValidationException naming {@code field} when the request has none. */
    private static <T> T required(T value, String field) {
        if (value == null) {
            throw AwsApiException.validation(field + ": is required");
        }
        return value;
    }

    /** An enum whose constant names are the wire values. */
    public static <E extends Enum<E>> E optionalEnum(JsonNode body, String field, Class<E> type) {
        String s = optionalString(body, field, null, 256);
        if (s == null) {
            return null;
        }
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(s)) {
                return e;
            }
        }
        throw AwsApiException.validation(field + ": must be one of " + java.util.Arrays.toString(type.getEnumConstants())
                + ", was '" + s + "'");
    }

    /** A timestamp: epoch seconds as a JSON number (what the AWS SDKs send), or an ISO-8601 string. */
    public static Instant optionalTimestamp(JsonNode body, String field) {
        JsonNode n = body.get(field);
        if (n == null || n.isNull()) {
            return null;
        }
        try {
            if (n.isNumber()) {
                BigDecimal seconds = n.decimalValue();
                long whole = seconds.longValue();
                long nanos = seconds.subtract(BigDecimal.valueOf(whole)).movePointRight(9).longValue();
                return Instant.ofEpochSecond(whole, nanos);
            }
            if (n.isTextual()) {
                return Instant.parse(n.asText());
            }
        } catch (RuntimeException e) {
            // falls through to the error below
        }
        throw AwsApiException.validation(field + ": must be a timestamp (epoch seconds), was " + n);
    }

    private static String prefixed(String path, String field) {
        return path == null || path.isEmpty() ? field : path + "." + field;
    }
}
