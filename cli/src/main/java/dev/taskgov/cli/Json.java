package dev.taskgov.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.taskgov.core.events.EventCodec;

/** Pretty JSON output with taskgov's codec. */
final class Json {
    private Json() {
    }

    static String pretty(Object value) {
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
