package dev.taskgov.service.support;

import dev.taskgov.core.events.EventCodec;

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
}
