package dev.taskgov.service.support;

import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * CloudEvents 1.0 Kafka protocol binding, binary mode: the event attributes travel as {@code ce_*}
 * headers and the record value is the event data (JSON). Incoming records may or may not carry them.
 */
public final class CloudEventHeaders {
    public static final String SPEC_VERSION = "ce_specversion";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String ID = "ce_id";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    /** In binary mode the data content type is the plain Kafka {@code content-type} header. */
    public static final String CONTENT_TYPE = "content-type";
    public static final String VERSION_1_0 = "1.0";

    private CloudEventHeaders() {
    }

    /** The attributes of one event; {@code subject} and {@code time} may be {@code null}. */
    public record CloudEvent(String specVersion, String type, String source, String id, Instant time, String subject) {
    }

    /**
     * Writes binary-mode headers (replacing any previous values).
     *
     * @param id a deterministic id lets consumers drop the copy a retried transaction may have
     *           produced in an aborted attempt (they never see it with read_committed anyway)
     */
    public static void write(Headers headers, String type, String source, String id, Instant time, String subject) {
        put(headers, SPEC_VERSION, VERSION_1_0);
        put(headers, TYPE, type);
        put(headers, SOURCE, source);
        put(headers, ID, id);
        if (time != null) put(headers, TIME, time.toString());
        if (subject != null) put(headers, SUBJECT, subject);
        put(headers, CONTENT_TYPE, "application/json");
    }

    /** The event attributes when the record carries at least {@code ce_specversion}; empty otherwise. */
    public static Optional<CloudEvent> read(Headers headers) {
        String spec = text(headers, SPEC_VERSION);
        if (spec == null) {
            return Optional.empty();
        }
        Instant time = null;
        String t = text(headers, TIME);
        if (t != null) {
            try {
                time = Instant.parse(t);
            } catch (DateTimeParseException e) {
                time = null; // an unreadable optional attribute does not make the event unreadable
            }
        }
        return Optional.of(new CloudEvent(spec, text(headers, TYPE), text(headers, SOURCE), text(headers, ID), time,
                text(headers, SUBJECT)));
    }

    /** The last value of a header as UTF-8 text, or {@code null}. */
    public static String text(Headers headers, String name) {
        Header h = headers == null ? null : headers.lastHeader(name);
        return h == null || h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8);
    }

    private static void put(Headers headers, String name, String value) {
        headers.remove(name);
        headers.add(name, value.getBytes(StandardCharsets.UTF_8));
    }
}
