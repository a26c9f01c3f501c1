package dev.taskgov.core.events;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * CloudEvents 1.0 in binary mode, the one way every taskgov producer labels a Kafka record: the event
 * attributes travel as {@code ce_*} headers and the record value is the event data (JSON of the one
 * codec). Framework-free: it writes through a header setter and reads through a header getter, so a
 * Kafka {@code Headers}, a SmallRye message or a map all adapt in one line.
 *
 * <p>{@code ce_type} is {@code dev.taskgov.<subject>.<event>} in lowercase (declared as {@code TYPE}
 * next to each record, e.g. {@link WorkloadSubmitted#TYPE}); {@code ce_source} is
 * {@code urn:taskgov:<component>} ({@link #source(String)}), e.g. {@code urn:taskgov:admission-service}.
 */
public final class CloudEvents {
    public static final String SPEC_VERSION = "ce_specversion";
    public static final String TYPE = "ce_type";
    public static final String SOURCE = "ce_source";
    public static final String ID = "ce_id";
    public static final String TIME = "ce_time";
    public static final String SUBJECT = "ce_subject";
    /** In binary mode the data content type is the plain Kafka {@code content-type} header. */
    public static final String CONTENT_TYPE = "content-type";
    public static final String VERSION_1_0 = "1.0";
    public static final String JSON = "application/json";
    /** Every taskgov {@code ce_source} starts so. */
    public static final String SOURCE_PREFIX = "urn:taskgov:";

    private CloudEvents() {
    }

    /** The attributes of one event; {@code time} and {@code subject} may be null. */
    public record Attributes(String specVersion, String type, String source, String id, Instant time, String subject) {
    }

    /** The {@code ce_source} of a taskgov component ({@code admission-service}, {@code cli}, ...). */
    public static String source(String component) {
        return component.startsWith(SOURCE_PREFIX) ? component : SOURCE_PREFIX + component;
    }

    /**
     * Writes binary-mode headers through {@code put} (which should replace a previous value of the
     * same name).
     *
     * @param id      a deterministic id lets consumers drop the copy a retried transaction may have
     *                produced in an aborted attempt (they never see it with read_committed anyway)
     * @param subject the record key, or null
     * @param hasData false for a tombstone: then no content type is written
     */
    public static void write(BiConsumer<String, byte[]> put, String type, String source, String id, Instant time,
                             String subject, boolean hasData) {
        // required attributes: a producer that has none has a bug, said here rather than as a NullPointerException
        if (type == null || source == null || id == null) {
            throw new IllegalArgumentException("a CloudEvent needs ce_type, ce_source and ce_id; got type=" + type
                    + ", source=" + source + ", id=" + id);
        }
        put.accept(SPEC_VERSION, utf8(VERSION_1_0));
        put.accept(TYPE, utf8(type));
        put.accept(SOURCE, utf8(source));
        put.accept(ID, utf8(id));
        if (time != null) put.accept(TIME, InstantText.ascii(time));
        if (subject != null) put.accept(SUBJECT, utf8(subject));
        if (hasData) put.accept(CONTENT_TYPE, utf8(JSON));
    }

    /**
     * The attributes of a record whose headers {@code lastHeader} gives (null for a missing header),
     * when it carries at least {@code ce_specversion}; empty otherwise (incoming submissions may
     * come without headers).
     */
    public static Optional<Attributes> read(Function<String, byte[]> lastHeader) {
        String spec = text(lastHeader.apply(SPEC_VERSION));
        if (spec == null) return Optional.empty();
        Instant time = null;
        String t = text(lastHeader.apply(TIME));
        if (t != null) {
            try {
                time = InstantText.parse(t);
            } catch (DateTimeParseException e) {
                time = null; // an unreadable optional attribute does not make the event unreadable
            }
        }
        return Optional.of(new Attributes(spec, text(lastHeader.apply(TYPE)), text(lastHeader.apply(SOURCE)),
                text(lastHeader.apply(ID)), time, text(lastHeader.apply(SUBJECT))));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
