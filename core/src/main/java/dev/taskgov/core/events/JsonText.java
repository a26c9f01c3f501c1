package dev.taskgov.core.events;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * One JSON value kept as UTF-8 text, for a member of a typed request that is itself a body with its own translator
 * (the quota bodies of a what-if request): a record field of this type takes any JSON value and hands its bytes on, so
 * that the one translator of that kind reads it, and the request's record does not walk it.
 *
 * @param bytes the value as UTF-8 JSON
 */
@JsonDeserialize(using = JsonText.Reader.class)
public record JsonText(byte[] bytes) {

    /** JSON null as a value of its own (a list member that is null), for the translator to refuse by its rules. */
    public static final JsonText NULL = new JsonText("null".getBytes(StandardCharsets.UTF_8));

    @Override
    public String toString() {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** Copies the value as the reading mapper parsed it (numbers kept as that mapper keeps them). */
    static final class Reader extends JsonDeserializer<JsonText> {
        @Override
        public JsonText deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            return new JsonText(EventCodec.mapper().writeValueAsBytes(ctxt.readTree(p)));
        }

        @Override
        public JsonText getNullValue(DeserializationContext ctxt) {
            return null;
        }
    }
}
