package dev.taskgov.bench;

import dev.taskgov.cli.CliException;
import dev.taskgov.cli.DemoCommand;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * The floor of an exactly-once decision on this broker, for the free cluster's latency figures: taskgov's own
 * {@link TransactionalLoop}, with a processor that decides nothing, driven as the free cluster is (one record every
 * 10 ms) and read back {@code read_committed}. Each record read is answered with one record on each of three topics,
 * as an admission is (the decision, its status, the decider's changelog), in the transaction that records the
 * record's offset in that changelog, as the deciders do. So the loop's default turns, the same producer and consumer settings, the same transaction
 * (records, offsets, end, markers on four partitions) and the same read back; only the decision is missing, and the
 * loop runs in the bench's process rather than a service's. Submit-to-admitted minus this is what deciding adds;
 * this minus the raw round trip is what exactly-once costs on this broker.
 */
final class ExactlyOnceFloor {
    static final String IN = "taskgov.bench.floor.in";
    /** The answer read back, as the admitted topic is. */
    static final String OUT = "taskgov.bench.floor.out";
    /** The two other topics an admission writes to (its status and the decider's changelog). */
    static final List<String> ALSO = List.of("taskgov.bench.floor.status", "taskgov.bench.floor.changelog");
    private static final String SOURCE = dev.taskgov.core.events.CloudEvents.source("cli-bench-floor");
    private static final String TYPE = "dev.taskgov.bench.floor.answer";

    private ExactlyOnceFloor() {
    }

    /**
     * Send {@code warmUp} then {@code samples} records, one every 10 ms, through a fresh echoing loop; the latency of
     * each measured one from its send until its answer is read (milliseconds).
     */
    static List<Long> measure(Properties client, KafkaProducer<String, String> producer, int warmUp, int samples, String run) {
        return measureTurns(client, producer, warmUp, samples, run, true).latencies();
    }

    /**
     * What {@link #measure} measures, and each measured turn's commit: from the end of its batch (the processor's
     * {@code afterBatch}) until the transaction is committed (the outputs' sends, the offsets, the end), microseconds.
     */
    record Figures(List<Long> latencies, List<Long> commitMicros) {
    }

    /**
     * {@link #measure}, with the commit time of every turn after the warm-up; {@code offsetsInChangelog}: the input
     * offsets are recorded in the changelog topic, as the deciders do, rather than committed to the group in the
     * transaction.
     */
    static Figures measureTurns(Properties client, KafkaProducer<String, String> producer, int warmUp, int samples, String run,
                                boolean offsetsInChangelog) {
        createTopics(client);
        List<Long> commits = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean warm = new AtomicBoolean();
        String changelog = ALSO.get(1);
        TransactionalLoop.Settings settings = new TransactionalLoop.Settings(client, "taskgov-bench-floor-" + run,
                List.of(IN), offsetsInChangelog ? List.of(changelog) : List.of(), Set.of(), "taskgov-bench-floor-" + run + "-",
                SOURCE, TopicCatalog.Names.DEADLETTER, Duration.ofMillis(100), Duration.ofMinutes(1),
                TransactionalLoop.Membership.KAFKA_DEFAULTS, null);
        TransactionalLoop loop = new TransactionalLoop(offsetsInChangelog ? settings.withOffsetsIn(changelog) : settings,
                scope -> new Echo(micros -> {
                    if (warm.get()) commits.add(micros);
                }), Clock.systemUTC());
        Thread thread = new Thread(loop, "bench-floor-loop");
        thread.setDaemon(true);
        thread.start();
        try (KafkaConsumer<String, String> answers = answers(client)) {
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!loop.isDecider()) {
                if (System.nanoTime() > deadline) throw CliException.failed("the exactly-once floor's loop did not start within 2 minutes");
                DemoCommand.pause(50);
            }
            List<Long> latencies = new ArrayList<>();
            Map<String, Long> sentAt = new HashMap<>();
            for (int i = 0; i < warmUp + samples; i++) {
                if (i == warmUp) warm.set(true);
                String key = run + "-" + i;
                sentAt.put(key, System.nanoTime());
                producer.send(new ProducerRecord<>(IN, key, "{}"));
                producer.flush();
                long until = System.nanoTime() + 10_000_000L;
                while (System.nanoTime() < until) read(answers, sentAt, latencies, warmUp, run, Duration.ofMillis(2));
            }
            long last = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!sentAt.isEmpty() && System.nanoTime() < last) read(answers, sentAt, latencies, warmUp, run, Duration.ofMillis(20));
            return new Figures(latencies, List.copyOf(commits));
        } finally {
            loop.close();
        }
    }

    private static void read(KafkaConsumer<String, String> answers, Map<String, Long> sentAt, List<Long> latencies, int warmUp,
                             String run, Duration wait) {
        for (ConsumerRecord<String, String> r : answers.poll(wait)) {
            Long sent = sentAt.remove(r.key());
            if (sent == null) continue;
            int index = Integer.parseInt(r.key().substring(run.length() + 1));
            if (index >= warmUp) latencies.add((System.nanoTime() - sent) / 1_000_000);
        }
    }

    private static KafkaConsumer<String, String> answers(Properties client) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, "2000");
        KafkaConsumer<String, String> c = CompactedTopicReader.groupless(p, new StringDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        c.partitionsFor(OUT).forEach(i -> parts.add(new TopicPartition(OUT, i.partition())));
        c.assign(parts);
        c.seekToEnd(parts);
        parts.forEach(c::position);
        return c;
    }

    private static void createTopics(Properties client) {
        List<NewTopic> topics = new ArrayList<>();
        topics.add(new NewTopic(IN, 1, (short) 1));
        topics.add(new NewTopic(OUT, 1, (short) 1));
        ALSO.forEach(t -> topics.add(new NewTopic(t, 1, (short) 1)));
        try (Admin admin = Admin.create(client)) {
            for (var created : admin.createTopics(topics).values().values()) {
                try {
                    created.get(20, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw CliException.failed("cannot create the exactly-once floor's topics: " + e.getCause().getMessage());
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted while creating the exactly-once floor's topics");
        } catch (TimeoutException e) {
            throw CliException.failed("the exactly-once floor's topics were not created within 20 s");
        }
    }

    /**
     * Answers each record read with one record on each output topic, and decides nothing; tells {@code commits} how
     * long each batch's commit took, in microseconds.
     */
    private static final class Echo implements TransactionalLoop.Processor<Long> {
        private final LongConsumer commits;

        Echo(LongConsumer commits) {
            this.commits = commits;
        }

        @Override
        public Long decode(ConsumerRecord<String, byte[]> record) {
            return record.offset();
        }

        @Override
        public void rebuild(Properties clientProps, Duration timeout) {
        }

        @Override
        public void restoreSide(ConsumerRecord<String, byte[]> record, Long offset) {
        }

        @Override
        public void settle(Outbox outbox) {
        }

        @Override
        public void apply(ConsumerRecord<String, byte[]> record, Long offset, Outbox outbox) {
            Map<String, Object> answer = Map.of("offset", offset);
            outbox.emit(OUT, record.key(), answer, TYPE, record.key() + ":out");
            for (String topic : ALSO) outbox.emit(topic, record.key(), answer, TYPE, record.key() + ":" + topic);
        }

        @Override
        public void afterBatch(Outbox outbox) {
            // The loop flushes and commits right after this: what follows until the commit is the turn's wait.
            long end = System.nanoTime();
            outbox.afterCommit(() -> commits.accept((System.nanoTime() - end) / 1_000));
        }

        @Override
        public void revoked() {
        }

        /** The changelog, when it is a side topic (it holds the input offsets): not read back while deciding. */
        @Override
        public Set<String> ownSideTopics() {
            return Set.of(ALSO.get(1));
        }
    }
}
