package dev.taskgov.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskgov.core.events.EventCodec;

/** Pretty JSON and YAML output with taskgov's codec. */
final class Json {
    private Json() {
    }

    static String yaml(Object value) {
        try {
            return new com.fasterxml.jackson.dataformat.yaml.YAMLMapper()
                    .disable(com.fasterxml.jackson.dataformat.yaml.YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
                    .writeValueAsString(EventCodec.mapper().valueToTree(value));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    static ObjectMapper mapper() {
        return EventCodec.mapper();
    }

    static String pretty(Object value) {
        try {
            return EventCodec.mapper().writerWithDefaultPrettyPrinter().writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
