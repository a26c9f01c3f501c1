package dev.taskgov.service.support;

import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.InvalidRecordException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.RecordBatchTooLargeException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.errors.TopicAuthorizationException;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

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
    private final List<Runnable> afterCommit = new ArrayList<>();
    /** Input records whose dead letter the producer could not write, with the first error. */
    private final Map<ConsumerRecord<String, byte[]>, Exception> failedDeadLetters = new ConcurrentHashMap<>();
    /**
     * Records Kafka refused for what they are (too large, a topic not writable), by the input record being handled
     * when they were emitted (empty: emitted outside any input, e.g. by a batch's decision cycle), with the error.
     */
    private final Map<Optional<ConsumerRecord<String, byte[]>>, RefusedOutput> refusedOutputs = new ConcurrentHashMap<>();
    private final PartitionScope scope;
    private final Map<String, Integer> partitionCounts;
    private ConsumerRecord<String, byte[]> input;
    private int sent;

    /** An emitted record that Kafka refused: where it was going, its key, and the error. */
    public record RefusedOutput(String topic, String key, Exception cause) {
        @Override
        public String toString() {
            return "its record to " + topic + " (key " + key + ") was refused: " + cause;
        }
    }

    public Outbox(Producer<String, byte[]> producer, String source, String deadLetterTopic, Clock clock) {
        this(producer, source, deadLetterTopic, clock, PartitionScope.WHOLE, Map.of());
    }

    /**
     * An outbox of the decider of {@code scope}: what it emits to a topic split like its inputs (the same partition
     * count; {@code partitionCounts} caches the counts per topic) goes to its own partition, where its clusters' records live; to any other
     * topic by the key as usual.
     */
    public Outbox(Producer<String, byte[]> producer, String source, String deadLetterTopic, Clock clock,
                  PartitionScope scope, Map<String, Integer> partitionCounts) {
        this.producer = Objects.requireNonNull(producer);
        this.source = source;
        this.deadLetterTopic = deadLetterTopic;
        this.clock = clock;
        this.scope = scope;
        this.partitionCounts = partitionCounts;
    }

    /** The partition for a record to {@code topic}: this decider's own when the topic is split like its inputs. */
    private Integer partitionFor(String topic) {
        if (scope.partitions() == 1) return null;
        Integer count = partitionCounts.computeIfAbsent(topic, t -> producer.partitionsFor(t).size());
        return count == scope.partitions() ? scope.partition() : null;
    }

    /**
     * Sends a JSON value with CloudEvents binary headers.
     *
     * @param eventId deterministic, e.g. {@code <workloadId>:<sequence>}
     */
    public void emit(String topic, String key, Object value, String eventType, String eventId) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, partitionFor(topic), key, EventCodec.bytes(value));
        CloudEventHeaders.write(record.headers(), eventType, source, eventId, clock.instant(), key);
        send(record);
    }

    /** A null value: deletes the key from a compacted topic. */
    public void tombstone(String topic, String key) {
        send(new ProducerRecord<>(topic, partitionFor(topic), key, null));
    }

    /** Refuses an input record: it goes to the dead-letter topic with its coordinates, bytes and reason. */
    public void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        ProducerRecord<String, byte[]> out = deadLetterRecord(deadLetterTopic, source, record.topic(), record.partition(),
                record.offset(), record.key(), record.value(), reason, clock.instant());
        // The callback tells a refused dead letter (topic missing, broker refusing) from a failed decision, so
        // that the loop does not blame the record that happened to be processed when the transaction broke.
        producer.send(out, (metadata, e) -> {
            if (e != null) failedDeadLetters.putIfAbsent(record, e);
        });
        sent++;
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
        // Errors surface at commitTransaction(), which then aborts the whole unit of work; the callback remembers which
        // input record's output it was, so the loop can refuse that record instead of retrying the batch for ever.
        Optional<ConsumerRecord<String, byte[]>> from = Optional.ofNullable(input);
        producer.send(record, (metadata, e) -> {
            if (e != null && refusesTheRecord(e)) refusedOutputs.putIfAbsent(from, new RefusedOutput(record.topic(), record.key(), e));
        });
        sent++;
    }

    /**
     * Errors about the record itself or its topic, which a retry cannot cure: not a transaction aborted or fenced, a
     * timeout, or anything else Kafka retries (a broker away, a leader moving).
     */
    static boolean refusesTheRecord(Exception e) {
        return e instanceof RecordTooLargeException || e instanceof RecordBatchTooLargeException || e instanceof InvalidRecordException
                || e instanceof InvalidTopicException || e instanceof TopicAuthorizationException;
    }

    /**
     * The input record being handled (the loop sets it before each {@link TransactionalLoop.Processor#apply}, and clears
     * it after): what it emits is blamed on it if Kafka refuses it.
     */
    void handling(ConsumerRecord<String, byte[]> record) {
        input = record;
    }

    /**
     * The emitted records Kafka refused in this transaction (complete once it was committed or aborted), by the input
     * record that emitted them (empty: emitted outside any input).
     */
    public Map<Optional<ConsumerRecord<String, byte[]>>, RefusedOutput> refusedOutputs() {
        return Map.copyOf(refusedOutputs);
    }

    /**
     * Runs {@code action} once the transaction holding this outbox's records is committed, never when it is
     * aborted: the place to count what was emitted or dead-lettered, so that counters tell what the topics hold.
     */
    public void afterCommit(Runnable action) {
        afterCommit.add(action);
    }

    /** The actions registered with {@link #afterCommit}, in order (run by the loop after the commit). */
    List<Runnable> afterCommitActions() {
        return List.copyOf(afterCommit);
    }

    /** The input records whose dead letter could not be written in this transaction, with the error. */
    public Map<ConsumerRecord<String, byte[]>, Exception> failedDeadLetters() {
        return Map.copyOf(failedDeadLetters);
    }

    /** How many records were sent through this outbox. */
    public int sent() {
        return sent;
    }

    public Clock clock() {
        return clock;
    }
}
