package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The consume-decide-produce loop with Kafka transactions, run on one dedicated thread.
 *
 * <p>Group topics (one partition per cluster in production) are consumed in a consumer group
 * with the {@link SingleOwnerAssignor}, so every partition goes to the same member: that member is
 * the one decider, the others stand by. Side topics (compacted state such as quotas and nodes) are read by the decider from
 * the beginning, without the group.
 *
 * <p>On assignment the loop (1) creates the transactional producer with the stable
 * {@code transactional.id} and calls {@code initTransactions()}, which fences any previous owner
 * and aborts its open transaction, (2) asks the processor to rebuild its state (typically from a
 * changelog topic, read_committed), (3) replays the side topics to their end, (4) lets the
 * processor settle in a first transaction, then (5) resumes the group topics at their committed
 * offsets. Each poll's records are processed in ONE transaction holding every emitted record and
 * the consumed offsets ({@code sendOffsetsToTransaction} with the group metadata).
 *
 * <p>A record whose processing throws is retried once after an abort and a rebuild; the second
 * time it is dead-lettered (the loop never stops on a bad record). A dead letter that cannot be written
 * aborts its transaction too: the offsets stay uncommitted and the batch is retried (after a pause)
 * until the dead-letter topic takes it; nothing is lost, and each failure is logged and counted. A fenced producer or a lost
 * generation ends the session; the loop rejoins as a standby.
 */
public final class TransactionalLoop implements Runnable, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TransactionalLoop.class);
    private static final Duration DEAD_LETTER_RETRY_PAUSE = Duration.ofSeconds(1);

    /**
     * @param clientProps     bootstrap servers and any client settings shared by consumers and producer
     * @param groupId         consumer group of the deciders
     * @param groupTopics     topics with one partition per cluster, owned by one member
     * @param sideTopics      compacted topics every decider reads whole
     * @param transactionalId stable per owned partition set, for zombie fencing
     * @param source          CloudEvents {@code ce_source} of what this loop emits
     * @param deadLetterTopic where refused records go
     * @param pollTimeout     how long one poll waits
     * @param rebuildTimeout  how long reading a topic to its end may take
     * @param moreGroupTopics null, or a pattern naming more group topics, subscribed with {@code groupTopics} by
     *                        pattern so that a topic created later (e.g. a new team's submission topic) joins
     */
    public record Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                           String transactionalId, String source, String deadLetterTopic, Duration pollTimeout,
                           Duration rebuildTimeout, Pattern moreGroupTopics) {

        public Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                        String transactionalId, String source, String deadLetterTopic, Duration pollTimeout,
                        Duration rebuildTimeout) {
            this(clientProps, groupId, groupTopics, sideTopics, transactionalId, source, deadLetterTopic, pollTimeout,
                    rebuildTimeout, null);
        }

        /** The group topics and the pattern's, as one pattern. */
        Pattern groupTopicPattern() {
            StringBuilder alternatives = new StringBuilder();
            for (String topic : groupTopics) alternatives.append(Pattern.quote(topic)).append('|');
            return Pattern.compile(alternatives + moreGroupTopics.pattern());
        }
    }

    /** What the service plugs in: its state and decisions. All methods run on the loop thread. */
    public interface Processor {
        /** Drop all state and load it again (e.g. from a changelog); no decisions yet. */
        void rebuild(Properties clientProps, Duration timeout);

        /** Apply a side-topic record while rebuilding: update the view, decide nothing. */
        void restoreSide(ConsumerRecord<String, byte[]> record);

        /** After a rebuild: make the decisions the restored state calls for. */
        void settle(Outbox outbox);

        /** Handle one record (group or side topic); emit decisions and refusals through the outbox. */
        void apply(ConsumerRecord<String, byte[]> record, Outbox outbox);

        /**
         * After every record of one poll was applied, in the same transaction: the place to run a
         * decision cycle once for the batch (records committed together, such as the victims of
         * one preemption, are then seen together).
         */
        void afterBatch(Outbox outbox);

        /** This instance no longer decides: drop the state (reads answer "not the decider"). */
        void revoked();

        /**
         * The loop itself refused a record whose processing failed twice (it went to the dead-letter topic
         * with the reason): the place to count it.
         */
        default void refusedAfterFailure(ConsumerRecord<String, byte[]> record, String reason) {
        }

        /**
         * The dead letter of {@code record} could not be written (dead-letter topic missing, broker refusing):
         * the transaction was aborted, so the record's offset is not committed and it is processed again; the
         * place to count the failure.
         */
        default void deadLetterWriteFailed(ConsumerRecord<String, byte[]> record, Exception cause) {
        }
    }

    private final Settings settings;
    private final Processor processor;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicBoolean owning = new AtomicBoolean(false);
    /** Survives the revocation that precedes every eager rebalance, so the owner keeps the partitions. */
    private final AtomicBoolean lastOwner = new AtomicBoolean(false);
    private final Map<String, Long> processed = new ConcurrentHashMap<>();
    private final Map<String, String> poison = new ConcurrentHashMap<>();
    private volatile long lag;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private KafkaProducer<String, byte[]> producer;
    private KafkaConsumer<String, byte[]> side;

    public TransactionalLoop(Settings settings, Processor processor, Clock clock) {
        this.settings = settings;
        this.processor = processor;
        this.clock = clock;
    }

    /** True while this instance owns the group partitions and has rebuilt its state. */
    public boolean isDecider() {
        return owning.get();
    }

    /** Next offset to process per {@code topic-partition}, for the records committed so far (group and side). */
    public Map<String, Long> processedOffsets() {
        return Map.copyOf(processed);
    }

    /** Records behind the end of the owned group partitions at the last poll. */
    public long lag() {
        return lag;
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                session();
            } catch (ProducerFencedException | InvalidProducerEpochException e) {
                LOG.warnf("another instance took over (%s); rejoining as standby", e.getMessage());
            } catch (WakeupException | InterruptException e) {
                if (running.get()) LOG.warn("loop interrupted; restarting", e);
            } catch (KafkaException e) {
                LOG.warn("Kafka session failed; rejoining", e);
            } finally {
                lastOwner.set(false);
                lose();
            }
        }
    }

    private void session() {
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        // Every partition of every group topic goes to one member: one decider per cluster.
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, SingleOwnerAssignor.class.getName());
        props.put(SingleOwnerAssignor.OWNER_FLAG, lastOwner);
        // A topic that matches the pattern joins at the next metadata refresh: within seconds, not Kafka's 5 minutes.
        if (settings.moreGroupTopics() != null) props.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer = c;
            ConsumerRebalanceListener listener = new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    lose();
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    if (partitions.isEmpty()) lastOwner.set(false);
                    else take(c);
                }
            };
            if (settings.moreGroupTopics() == null) c.subscribe(settings.groupTopics(), listener);
            else c.subscribe(settings.groupTopicPattern(), listener);
            while (running.get()) {
                ConsumerRecords<String, byte[]> records = c.poll(settings.pollTimeout());
                if (!owning.get()) continue;
                List<ConsumerRecord<String, byte[]>> sideRecords = new ArrayList<>();
                side.poll(Duration.ZERO).forEach(sideRecords::add);
                if (!records.isEmpty() || !sideRecords.isEmpty()) {
                    if (!process(c, records, sideRecords)) continue;
                }
                // Positions, not last offsets + 1: they also step over transaction markers, so a
                // caught-up decider reports exactly the topic's end offset (read_committed).
                for (TopicPartition tp : c.assignment()) processed.put(key(tp), c.position(tp));
                for (TopicPartition tp : side.assignment()) processed.put(key(tp), side.position(tp));
                long behind = 0;
                for (TopicPartition tp : c.assignment()) behind += c.currentLag(tp).orElse(0);
                lag = behind;
            }
        } finally {
            consumer = null;
        }
    }

    /** Becomes the decider: fence the previous one, rebuild, settle. */
    private void take(KafkaConsumer<String, byte[]> c) {
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, settings.transactionalId());
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        producer.initTransactions();
        rebuild();
        for (TopicPartition tp : c.assignment()) {
            OffsetAndMetadata committed = c.committed(Set.of(tp)).get(tp);
            processed.put(key(tp), committed == null ? 0L : committed.offset());
        }
        owning.set(true);
        lastOwner.set(true);
        LOG.infof("decider for %s (transactional.id %s)", c.assignment(), settings.transactionalId());
    }

    private void rebuild() {
        processor.revoked();
        processor.rebuild(settings.clientProps(), settings.rebuildTimeout());
        if (side != null) side.close();
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        side = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        for (String topic : settings.sideTopics()) {
            List<PartitionInfo> infos = side.partitionsFor(topic, settings.rebuildTimeout());
            if (infos != null) infos.forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
        }
        side.assign(parts);
        side.seekToBeginning(parts);
        Map<TopicPartition, Long> end = side.endOffsets(parts, settings.rebuildTimeout());
        long deadline = System.nanoTime() + settings.rebuildTimeout().toNanos();
        while (parts.stream().anyMatch(tp -> side.position(tp) < end.get(tp))) {
            if (System.nanoTime() > deadline) throw new KafkaException("side topics not read to their end in time");
            for (ConsumerRecord<String, byte[]> r : side.poll(Duration.ofMillis(100))) {
                if (poison.containsKey(coordinates(r))) continue;
                processor.restoreSide(r);
            }
        }
        parts.forEach(tp -> processed.put(key(tp), side.position(tp)));
        producer.beginTransaction();
        Outbox out = outbox();
        processor.settle(out);
        producer.commitTransaction();
        out.afterCommitActions().forEach(Runnable::run);
    }

    /** True when the batch was committed; false when it was aborted and the state rebuilt. */
    private boolean process(KafkaConsumer<String, byte[]> c, ConsumerRecords<String, byte[]> records,
                         List<ConsumerRecord<String, byte[]>> sideRecords) {
        ConsumerRecord<String, byte[]> current = null;
        producer.beginTransaction();
        Outbox out = outbox();
        try {
            for (ConsumerRecord<String, byte[]> r : sideRecords) {
                current = r;
                applyOrRefuse(r, out);
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (ConsumerRecord<String, byte[]> r : records) {
                current = r;
                applyOrRefuse(r, out);
                offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            current = null;
            processor.afterBatch(out);
            producer.sendOffsetsToTransaction(offsets, c.groupMetadata());
            producer.commitTransaction();
            out.afterCommitActions().forEach(Runnable::run);
            return true;
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            throw e;
        } catch (RuntimeException e) {
            LOG.warnf(e, "transaction aborted%s", current == null ? "" : " at " + coordinates(current));
            producer.abortTransaction();
            Map<ConsumerRecord<String, byte[]>, Exception> lost = out.failedDeadLetters();
            if (!lost.isEmpty()) {
                // Not the current record's fault: its processing went well, the dead-letter topic refused a write.
                // Nothing is committed, so the refused records come again after the rebuild; a pause keeps a
                // topic that stays unwritable from turning the loop into a busy retry.
                lost.forEach((r, cause) -> {
                    LOG.errorf("cannot write the dead letter of %s to %s (%s); its offset is not committed and it will be "
                            + "processed again", coordinates(r), settings.deadLetterTopic(), cause.toString());
                    processor.deadLetterWriteFailed(r, cause);
                });
                pause(DEAD_LETTER_RETRY_PAUSE);
            } else if (current != null) {
                // Retried once after the rebuild below; dead-lettered the second time.
                poison.merge(coordinates(current), "processing failed: " + e, (a, b) -> a);
            }
            rewind(c);
            return false;
        }
    }

    private void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void applyOrRefuse(ConsumerRecord<String, byte[]> r, Outbox out) {
        String reason = poison.get(coordinates(r));
        if (reason != null && reason.startsWith("!")) {
            out.deadLetter(r, reason.substring(1));
            out.afterCommit(() -> processor.refusedAfterFailure(r, reason.substring(1)));
            return;
        }
        processor.apply(r, out);
    }

    /** After an abort: in-memory state may be half applied, so rebuild and go back to the committed offsets. */
    private void rewind(KafkaConsumer<String, byte[]> c) {
        poison.replaceAll((k, v) -> v.startsWith("!") ? v : "!" + v);
        rebuild();
        for (TopicPartition tp : c.assignment()) {
            OffsetAndMetadata committed = c.committed(Set.of(tp)).get(tp);
            if (committed == null) c.seekToBeginning(List.of(tp));
            else c.seek(tp, committed.offset());
        }
    }

    private Outbox outbox() {
        return new Outbox(producer, settings.source(), settings.deadLetterTopic(), clock);
    }

    private void lose() {
        boolean was = owning.getAndSet(false);
        if (was) processor.revoked();
        if (side != null) {
            side.close(Duration.ofSeconds(1));
            side = null;
        }
        if (producer != null) {
            try {
                producer.close(Duration.ofSeconds(2));
            } catch (RuntimeException e) {
                LOG.debug("closing producer", e);
            }
            producer = null;
        }
        processed.clear();
    }

    private static String key(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    private static String coordinates(ConsumerRecord<?, ?> r) {
        return r.topic() + "-" + r.partition() + "@" + r.offset();
    }

    /** Stops the loop; the thread leaves the group and closes its clients. */
    @Override
    public void close() {
        running.set(false);
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) c.wakeup();
    }
}
