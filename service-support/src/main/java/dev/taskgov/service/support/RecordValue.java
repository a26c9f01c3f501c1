package dev.taskgov.service.support;

import dev.taskgov.core.events.EventCodec;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A record's value read as the event its topic carries, or why it is not one (no value, JSON null, not that event's
 * shape), as a decider's decode step reads it: one wording of these refusals for every decider.
 */
public sealed interface RecordValue<T> {

    /** The value, read. */
    record Read<T>(T value) implements RecordValue<T> {
    }

    /** No such value: why, and how the dead letter is counted. */
    record Refused<T>(DeadLetterMetrics.Reason category, String reason) implements RecordValue<T> {
    }

    /** Reads {@code record}'s value as a {@code type}; never throws for a bad value. */
    static <T> RecordValue<T> of(ConsumerRecord<String, byte[]> record, Class<T> type) {
        String name = type.getSimpleName();
        if (record.value() == null) {
            return new Refused<>(DeadLetterMetrics.Reason.UNREADABLE, "the record has no value (a tombstone is not a " + name + ")");
        }
        try {
            T value = EventCodec.read(record.value(), type);
            return value == null ? new Refused<>(DeadLetterMetrics.Reason.UNREADABLE, "the value is JSON null, not a " + name)
                    : new Read<>(value);
        } catch (EventCodec.EventFormatException e) {
            return new Refused<>(DeadLetterMetrics.Reason.UNREADABLE, "unreadable " + name + ": " + e.getMessage());
        }
    }
}
