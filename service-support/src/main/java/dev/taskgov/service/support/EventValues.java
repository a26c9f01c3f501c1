package dev.taskgov.service.support;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.Translation;

/**
 * Reads a record value into a contract record with the one codec, classifying what it refuses the
 * way the dead-letter counter does: a value that is not the record at all (not JSON, not an object,
 * trailing bytes, JSON null) is {@link UnreadableRecordException}; a readable value with a field of
 * the wrong type is an {@link IllegalArgumentException} naming the field's path (invalid).
 */
public final class EventValues {

    private EventValues() {
    }

    public static <T> T read(String value, Class<T> type) {
        T t;
        try {
            t = EventCodec.read(value, type);
        } catch (EventCodec.EventFormatException e) {
            if (e.path().equals("$")) throw new UnreadableRecordException("unreadable " + type.getSimpleName() + ": " + e.getMessage(), e);
            throw e;
        }
        if (t == null) throw new UnreadableRecordException("$: must be a " + type.getSimpleName() + " object, was null");
        return t;
    }

    /**
     * The value of a record a translator read, or its refusal as the exception a channel's dead-letter failure
     * strategy writes with the translator's reason and counts by its kind.
     */
    public static <T> T orRefuse(Translation<T> translation) {
        if (translation instanceof Translation.Translated<T> t) return t.value();
        Translation.Refused<T> refused = (Translation.Refused<T>) translation;
        if (refused.kind() == Translation.Kind.UNREADABLE) throw new UnreadableRecordException(refused.reason());
        throw new IllegalArgumentException(refused.reason());
    }
}
