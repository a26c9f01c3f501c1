package dev.taskgov.service.support;

import dev.taskgov.core.events.CloudEvents;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BiConsumer;

/** The core's {@link CloudEvents} binary-mode headers on Kafka {@link Headers}: the one adapter every service uses. */
public final class CloudEventHeaders {

    private CloudEventHeaders() {
    }

    /** Writes the headers of an event with JSON data (replacing any previous values). */
    public static void write(Headers headers, String type, String source, String id, Instant time, String subject) {
        CloudEvents.write(setter(headers), type, source, id, time, subject, true);
    }

    /** Writes the headers of a tombstone (no data, so no content type). */
    public static void writeTombstone(Headers headers, String type, String source, String id, Instant time, String subject) {
        CloudEvents.write(setter(headers), type, source, id, time, subject, false);
    }

    /**
     * A header setter that replaces a previous value of the same name. Most records are new and have no headers yet;
     * looking first spares them the iterator a removal makes.
     */
    public static BiConsumer<String, byte[]> setter(Headers headers) {
        return (name, value) -> {
            if (headers.lastHeader(name) != null) headers.remove(name);
            headers.add(name, value);
        };
    }

    /** The event attributes when the record carries at least {@code ce_specversion}; empty otherwise. */
    public static Optional<CloudEvents.Attributes> read(Headers headers) {
        return CloudEvents.read(name -> {
            Header h = headers == null ? null : headers.lastHeader(name);
            return h == null ? null : h.value();
        });
    }

    /** The last value of a header as UTF-8 text, or {@code null}. */
    public static String text(Headers headers, String name) {
        Header h = headers == null ? null : headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }
}
