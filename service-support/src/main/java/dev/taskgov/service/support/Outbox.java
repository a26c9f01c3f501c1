package dev.taskgov.service.support;

import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;

import java.time.Clock;
import java.time.Instant;
import java.util.Objects;

/**
 * What a processor emits while handling input: every record goes into the loop's current Kafka
 * transaction, so it becomes visible (to read_committed consumers) exactly when the consumed
 * offsets are committed, or never.
 */
public final class Outbox {
    private final Producer<String, byte[]> producer;
    private final String source;
    private final String deadLetterTopic;
    private final Clock clock;
    private int sent;

    public Outbox(Producer<String, byte[]> producer, String source, String deadLetterTopic, Clock clock) {
        this.producer = Objects.requireNonNull(producer);
        this.source = source;
        this.deadLetterTopic = deadLetterTopic;
        this.clock = clock;
    }

    /**
     * Sends a JSON value with CloudEvents binary headers.
     *
     * @param eventId deterministic, e.g. {@code <workloadId>:<sequence>}
     */
    public void emit(String topic, String key, Object value, String eventType, String eventId) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, key, EventCodec.bytes(value));
        CloudEventHeaders.write(record.headers(), eventType, source, eventId, clock.instant(), key);
        send(record);
    }

    /** A null value: deletes the key from a compacted topic. */
    public void tombstone(String topic, String key) {
        send(new ProducerRecord<>(topic, key, null));
    }

    /** Refuses an input record: it goes to the dead-letter topic with its coordinates, bytes and reason. */
    public void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        send(deadLetterRecord(deadLetterTopic, source, record.topic(), record.partition(), record.offset(), record.key(),
                record.value(), reason, clock.instant()));
    }

    /**
     * The {@code taskgov.deadletter} record of a refused input record, with CloudEvents headers; its
     * event id is the refused record's coordinates, so a retried refusal is recognisably the same.
     */
    public static ProducerRecord<String, byte[]> deadLetterRecord(String deadLetterTopic, String source, String topic,
                                                                  int partition, long offset, String key, byte[] value,
                                                                  String reason, Instant at) {
        DeadLetter letter = DeadLetter.of(topic, partition, offset, key, value, reason, at);
        ProducerRecord<String, byte[]> out = new ProducerRecord<>(deadLetterTopic, key, EventCodec.bytes(letter));
        CloudEventHeaders.write(out.headers(), DeadLetter.TYPE, source, topic + "-" + partition + "@" + offset, at, key);
        return out;
    }

    private void send(ProducerRecord<String, byte[]> record) {
        // Errors surface at commitTransaction(), which then aborts the whole unit of work.
        producer.send(record);
        sent++;
    }

    /** How many records were sent through this outbox. */
    public int sent() {
        return sent;
    }

    public Clock clock() {
        return clock;
    }
}
