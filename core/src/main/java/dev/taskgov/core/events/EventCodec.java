package dev.taskgov.core.events;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;

/**
 * Reads and writes the JSON of taskgov's events (and scenario files). Times are ISO-8601 strings
 * ({@code 2026-11-30T10:00:00Z}); unknown fields are ignored; numbers stay exact (BigDecimal).
 */
public final class EventCodec {

    private static final ObjectMapper MAPPER = newMapper();

    private EventCodec() {
    }

    /** A mapper configured for taskgov's JSON; safe to share. */
    public static ObjectMapper mapper() {
        return MAPPER;
    }

    private static ObjectMapper newMapper() {
        SimpleModule time = new SimpleModule("taskgov-time");
        time.addSerializer(Instant.class, new JsonSerializer<>() {
            @Override
            public void serialize(Instant value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
                gen.writeString(value.toString());
            }
        });
        time.addDeserializer(Instant.class, new JsonDeserializer<>() {
            @Override
            public Instant deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
                String s = p.getValueAsString();
                try {
                    return s == null ? null : Instant.parse(s);
                } catch (DateTimeParseException e) {
                    throw JsonMappingException.from(p, "must be an ISO-8601 instant such as 2026-11-30T10:00:00Z, was '" + s + "'");
                }
            }
        });
        return new ObjectMapper()
                .registerModule(time)
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false)
                .configure(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS, true)
                .configure(SerializationFeature.FAIL_ON_EMPTY_BEANS, false);
    }

    /**
     * Reads one event.
     *
     * @throws EventFormatException naming the JSON field that does not parse
     */
    public static <T> T read(String json, Class<T> type) {
        try {
            return MAPPER.readValue(json, type);
        } catch (JsonProcessingException e) {
            throw EventFormatException.of(e);
        }
    }

    /** Reads one event from UTF-8 bytes. */
    public static <T> T read(byte[] json, Class<T> type) {
        return read(new String(json, StandardCharsets.UTF_8), type);
    }

    /** Converts a parsed tree into an event. */
    public static <T> T read(JsonNode json, Class<T> type) {
        try {
            return MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            throw e instanceof JsonProcessingException jpe ? EventFormatException.of(jpe)
                    : new EventFormatException("$", e.getMessage());
        }
    }

    /** Writes an event as compact JSON. */
    public static String write(Object event) {
        try {
            return MAPPER.writeValueAsString(event);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot write " + event.getClass().getSimpleName(), e);
        }
    }

    /** JSON that does not parse into the expected event; {@link #path()} names the field. */
    public static final class EventFormatException extends RuntimeException {
        private final String path;
        private final String problem;

        public EventFormatException(String path, String problem) {
            super(path + ": " + problem);
            this.path = path;
            this.problem = problem;
        }

        /** What is wrong, without the path. */
        public String problem() {
            return problem;
        }

        static EventFormatException of(JsonProcessingException e) {
            String path = "$";
            if (e instanceof JsonMappingException m) {
                StringBuilder sb = new StringBuilder("$");
                for (JsonMappingException.Reference ref : m.getPath()) {
                    if (ref.getFieldName() != null) sb.append('.').append(ref.getFieldName());
                    else if (ref.getIndex() >= 0) sb.append('[').append(ref.getIndex()).append(']');
                }
                path = sb.toString();
            }
            return new EventFormatException(path, e.getOriginalMessage());
        }

        public String path() {
            return path;
        }
    }
}
