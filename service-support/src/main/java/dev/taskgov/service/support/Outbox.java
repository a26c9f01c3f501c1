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
import java.util.LinkedHashMap;
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
     * The record Kafka refused for what it is (too large, a topic not writable), by the input record being handled
     * when it was emitted (empty: emitted outside any input, e.g. by a batch's decision cycle), with the error: the
     * first refusal only. Once a record is refused the transaction can only abort, and Kafka fails every record not
     * yet sent with that same error, which is not theirs (a workload in the same batch as a too-large one would be
     * blamed with it). Another record at fault is refused again when the batch is retried without the first.
     */
    private final Map<Optional<ConsumerRecord<String, byte[]>>, RefusedOutput> refusedOutputs = new ConcurrentHashMap<>();
    private final PartitionScope scope;
    private final Map<String, Integer> partitionCounts;
    /**
     * Records held by {@link #emitLatest} until a later record under the same topic and key replaces them or the batch
     * ends ({@link #flush}), in the order each key was first held.
     */
    private final Map<TopicKey, Held> latest = new LinkedHashMap<>();
    private ConsumerRecord<String, byte[]> input;
    private int sent;

    private record TopicKey(String topic, String key) {
    }

    /**
     * A record {@link #emitLatest} holds, encoded only when sent, and the input record blamed if Kafka refuses it
     * (empty: emitted outside any input).
     */
    private record Held(String topic, String key, Object value, String eventType, String eventId, Instant time,
                        Optional<ConsumerRecord<String, byte[]>> from) {
        Held blamingEarlier(Held earlier) {
            return from.isPresent() ? this : new Held(topic, key, value, eventType, eventId, time, earlier.from);
        }
    }

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
        send(record(topic, key, value, eventType, eventId, clock.instant()), blamed(topic, key));
    }

    private ProducerRecord<String, byte[]> record(String topic, String key, Object value, String eventType, String eventId,
                                                  Instant time) {
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topic, partitionFor(topic), key, EventCodec.bytes(value));
        CloudEventHeaders.write(record.headers(), eventType, source, eventId, time, key);
        return record;
    }

    /** A null value: deletes the key from a compacted topic. */
    public void tombstone(String topic, String key) {
        send(new ProducerRecord<>(topic, partitionFor(topic), key, null), blamed(topic, key));
    }

    /**
     * Whom a record sent now under {@code key} blames if refused: the input record being handled, or, emitted outside
     * any input (a batch's decision cycle), the one that emitted the record held under the key, which it replaces.
     */
    private Optional<ConsumerRecord<String, byte[]>> blamed(String topic, String key) {
        Held replaced = latest.isEmpty() ? null : latest.remove(new TopicKey(topic, key));
        if (input != null || replaced == null) return Optional.ofNullable(input);
        return replaced.from();
    }

    /**
     * {@link #emit} of a state that a later record in this transaction is likely to replace, to a compacted topic whose
     * readers need only each key's latest value: the record is held, and a later {@link #emit}, {@link #tombstone} or
     * {@code emitLatest} under the same key replaces it; one never replaced is sent when the batch ends ({@link #flush},
     * before the commit). A read_committed reader sees a transaction's records all at once, so a replaced one was never
     * a state anybody could read on its own; a workload submitted and admitted in one batch then costs one changelog and
     * one status record, not two of each (docs/benchmarks.md, "Decider settings and their measured effect"). Only such
     * states are held: what is held is sent at the end, not while the batch is applied. The value must not change
     * afterwards: it is encoded when sent, so a replaced record is never encoded.
     */
    public void emitLatest(String topic, String key, Object value, String eventType, String eventId) {
        Held held = new Held(topic, key, Objects.requireNonNull(value), eventType, eventId, clock.instant(), Optional.ofNullable(input));
        latest.merge(new TopicKey(topic, key), held, (earlier, later) -> later.blamingEarlier(earlier));
    }

    /** Sends the records {@link #emitLatest} holds; the loop calls it once every record of the transaction was emitted. */
    void flush() {
        for (Held h : latest.values()) send(record(h.topic(), h.key(), h.value(), h.eventType(), h.eventId(), h.time()), h.from());
        latest.clear();
    }

    /** Refuses an input record: it goes to the dead-letter topic with its coordinates, bytes and reason. */
    public void deadLetter(ConsumerRecord<String, byte[]> record, String reason) {
        ProducerRecord<String, byte[]> out = deadLetterRecord(deadLetterTopic, source, record.topic(), record.partition(),
                record.offset(), record.key(), record.value(), reason, clock.instant());
        // The callback tells a refused dead letter (topic missing, broker refusing) from a failed decision, so
        // that the loop does not blame the record that happened to be processed when the transaction broke.
        producer.send(out, (metadata, e) -> {
            if (e != null && !isTheRefusal(e)) failedDeadLetters.putIfAbsent(record, e);
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

    private void send(ProducerRecord<String, byte[]> record, Optional<ConsumerRecord<String, byte[]>> from) {
        // Errors surface at commitTransaction(), which then aborts the whole unit of work; the callback remembers which
        // input record's output it was, so the loop can refuse that record instead of retrying the batch for ever.
        producer.send(record, (metadata, e) -> {
            if (e != null && refusesTheRecord(e)) {
                synchronized (refusedOutputs) {
                    if (refusedOutputs.isEmpty()) refusedOutputs.put(from, new RefusedOutput(record.topic(), record.key(), e));
                }
            }
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

    /** Whether {@code e} is the first refusal, which Kafka gives every record not yet sent when it comes. */
    private boolean isTheRefusal(Exception e) {
        synchronized (refusedOutputs) {
            return refusedOutputs.values().stream().anyMatch(r -> r.cause() == e);
        }
    }

    /**
     * The input record being handled (the loop sets it before each {@link TransactionalLoop.Processor#apply}, and clears
     * it after): what it emits is blamed on it if Kafka refuses it.
     */
    void handling(ConsumerRecord<String, byte[]> record) {
        input = record;
    }

    /**
     * The first emitted record Kafka refused in this transaction, if any (complete once it was committed or aborted),
     * by the input record that emitted it (empty: emitted outside any input).
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
