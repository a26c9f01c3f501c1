package dev.taskgov.preemption;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.preemption.ChangelogRecords.PendingGrace;
import dev.taskgov.preemption.ChangelogRecords.Reservation;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.RecordValue;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * One record the preemption decider's loop reads, decoded once where the loop takes it ({@link #decode}): routing
 * ({@link PreemptionProcessor#home}), application ({@link PreemptionProcessor#apply}) and restoring
 * ({@link PreemptionProcessor#restoreSide}) dispatch on this value. A new kind of input is a new case here, in
 * {@link #decode}, and in those dispatches.
 */
sealed interface PreemptionInput {

    /** A preemption request admission-service made for a pending workload. */
    record Request(PreemptionRequested request) implements PreemptionInput {
    }

    /** An eviction admission-service decided and applied itself (NodeFailure, QuotaRemoved), to be published. */
    record Eviction(EvictionDecided eviction) implements PreemptionInput {
    }

    /** Room held for a preemptor, from the changelog (the previous owner's, or this decider's own). */
    record RoomReserved(Reservation reservation) implements PreemptionInput {
    }

    /** A victim in its grace period, from the changelog. */
    record GraceStarted(PendingGrace grace) implements PreemptionInput {
    }

    /** A changelog record removed (its tombstone): the reservation or grace it held has ended. */
    record ChangelogRemoved(String key) implements PreemptionInput {
    }

    /**
     * A changelog record of no kind this processor writes (its loop's input offsets, {@code InputOffsets}, included),
     * or without a key: nothing to restore.
     */
    record ChangelogIgnored() implements PreemptionInput {
    }

    /**
     * A record that cannot be what its topic carries: refused where it is with the reason (a changelog record that
     * does not parse is skipped while restoring).
     */
    record Unreadable(DeadLetterMetrics.Reason category, String reason) implements PreemptionInput {
    }

    /** What {@code record} is, by its topic (and, on the requests topic, its {@code ce_type}); never throws. */
    static PreemptionInput decode(DeciderTopics topics, ConsumerRecord<String, byte[]> record) {
        if (record.topic().equals(topics.changelog())) return changelog(record);
        if (!record.topic().equals(topics.preemptionRequested())) {
            return new Unreadable(DeadLetterMetrics.Reason.INVALID, "unexpected topic " + record.topic());
        }
        // Two record types share the requests topic (admission-service is its only writer): told apart by ce_type.
        String type = CloudEventHeaders.text(record.headers(), CloudEvents.TYPE);
        if (EvictionDecided.TYPE.equals(type)) return value(record, EvictionDecided.class, Eviction::new);
        if (PreemptionRequested.TYPE.equals(type)) return value(record, PreemptionRequested.class, Request::new);
        return new Unreadable(DeadLetterMetrics.Reason.INVALID, "ce_type: a record on " + record.topic() + " must be "
                + PreemptionRequested.TYPE + " (a preemption request) or " + EvictionDecided.TYPE
                + " (an eviction admission-service decided), was " + (type == null ? "absent" : "'" + type + "'"));
    }

    private static PreemptionInput changelog(ConsumerRecord<String, byte[]> record) {
        String key = record.key();
        if (key == null) return new ChangelogIgnored();
        if (record.value() == null) return new ChangelogRemoved(key);
        try {
            if (key.startsWith(ChangelogRecords.RESERVATION)) {
                return new RoomReserved(EventCodec.read(record.value(), Reservation.class));
            }
            if (key.startsWith(ChangelogRecords.GRACE)) return new GraceStarted(EventCodec.read(record.value(), PendingGrace.class));
            return new ChangelogIgnored();
        } catch (RuntimeException e) {
            return new Unreadable(DeadLetterMetrics.Reason.UNREADABLE, "changelog record " + key + " does not parse: " + e);
        }
    }

    private static <T> PreemptionInput value(ConsumerRecord<String, byte[]> record, Class<T> type,
                                             java.util.function.Function<T, PreemptionInput> input) {
        RecordValue<T> value = RecordValue.of(record, type);
        if (value instanceof RecordValue.Refused<T> refused) return new Unreadable(refused.category(), refused.reason());
        return input.apply(((RecordValue.Read<T>) value).value());
    }
}
