package dev.taskgov.quota.api;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.math.BigDecimal;
import java.time.Instant;

/** The JSON conventions of AWS JSON 1.1 responses. */
public final class AwsJson {

    /** Keeps BigDecimal values as given (no 1E+3 forms). */
    public static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);
    public static final ObjectMapper MAPPER = new ObjectMapper().setNodeFactory(NODES)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);
    public static final String CONTENT_TYPE = "application/x-amz-json-1.1";

    private AwsJson() {
    }

    public static ObjectNode object() {
        return NODES.objectNode();
    }

    /** Parses a stored document (numbers kept exact). */
    public static ObjectNode parse(String json) {
        try {
            return (ObjectNode) MAPPER.readTree(json);
        } catch (Exception e) {
            throw new IllegalStateException("stored document is not a JSON object", e);
        }
    }

    public static String write(JsonNode node) {
        try {
            return MAPPER.writeValueAsString(node);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Timestamps travel as epoch seconds, a JSON number with milliseconds as the fraction. */
    public static BigDecimal epochSeconds(Instant t) {
        return BigDecimal.valueOf(t.toEpochMilli(), 3);
    }
}
