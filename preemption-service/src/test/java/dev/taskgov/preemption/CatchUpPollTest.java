package dev.taskgov.preemption;

import dev.taskgov.service.support.Outbox;
import dev.taskgov.service.support.PartitionScope;
import dev.taskgov.service.support.TransactionalLoop;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * service-support's {@link TransactionalLoop} (run here, where a broker is at hand) under load: what arrives while a
 * turn is still running joins the next batch, also the part the consumer's pipelined fetch did not bring; with a
 * commit interval, what arrives while the loop waits after a turn is one batch; below the rate from which turns batch,
 * a lone record does not wait for the interval.
 */
class CatchUpPollTest {

    /** Keeps each batch's keys; the batch holding "gate" ends only when the test releases it (a long turn). */
    static final class Batches implements TransactionalLoop.Processor<String> {
        @Override
        public String decode(ConsumerRecord<String, byte[]> record) {
            return record.key();
        }

        final List<List<String>> batches = new CopyOnWriteArrayList<>();
        /** When each batch's first record was applied ({@link System#nanoTime}). */
        final List<Long> batchStarts = new CopyOnWriteArrayList<>();
        final CountDownLatch gateReached = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private List<String> current = new ArrayList<>();

        @Override
        public void rebuild(Properties clientProps, Duration timeout) {
        }

        @Override
        public void restoreSide(ConsumerRecord<String, byte[]> record, String key) {
        }

        @Override
        public void settle(Outbox outbox) {
        }

        @Override
        public void apply(ConsumerRecord<String, byte[]> record, String key, Outbox outbox) {
            if (current.isEmpty()) batchStarts.add(System.nanoTime());
            current.add(key);
        }

        @Override
        public void afterBatch(Outbox outbox) {
            if (current.isEmpty()) return;
            List<String> batch = List.copyOf(current);
            current = new ArrayList<>();
            batches.add(batch);
            if (batch.contains("gate")) {
                gateReached.countDown();
                try {
                    release.await(1, TimeUnit.MINUTES);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public void revoked() {
        }

        int applied() {
            return batches.stream().mapToInt(List::size).sum();
        }
    }

    @Test
    void whatArrivesDuringABusyTurnBeyondThePipelinedFetchJoinsTheNextBatch() throws Exception {
        try (TestCluster c = new TestCluster("catch-up")) {
            String topic = c.topics.preemptionRequested();
            Loop l = startLoop(c, topic, "catch-up",
                    // A generous second-poll wait: it returns as soon as records come, so the test does not race the broker.
                    new TransactionalLoop.Turns(Duration.ofSeconds(10), Duration.ZERO));
            try (KafkaProducer<String, byte[]> producer = producer(c)) {
                int home = l.home();
                Map<Integer, Batches> processors = l.processors();
                byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
                producer.send(new ProducerRecord<>(topic, home, "gate", value)).get(30, TimeUnit.SECONDS);
                Batches p = processors.get(home);
                assertThat(p.gateReached.await(1, TimeUnit.MINUTES)).isTrue();

                // The turn holding "gate" runs on. The fetch the consumer sent when its poll returned waits at the
                // broker, which answers it with the first burst as it appends the burst (flush() returns once the
                // append is acknowledged); the second burst is sent after that, so that answer does not hold it.
                List<String> first = keys("a", 20);
                List<String> second = keys("b", 20);
                for (String key : first) producer.send(new ProducerRecord<>(topic, home, key, value));
                producer.flush();
                for (String key : second) producer.send(new ProducerRecord<>(topic, home, key, value));
                producer.flush();
                p.release.countDown();

                await().atMost(Duration.ofMinutes(1)).until(() -> p.batches.stream().mapToInt(List::size).sum() == 41);
                List<String> both = new ArrayList<>(first);
                both.addAll(second);
                assertThat(p.batches).containsExactly(List.of("gate"), both);
            }
        }
    }

    @Test
    void withACommitIntervalWhatArrivesWhileTheLoopWaitsAfterATurnIsTakenInOneBatch() throws Exception {
        try (TestCluster c = new TestCluster("commit-interval")) {
            String topic = c.topics.preemptionRequested();
            Loop l = startLoop(c, topic, "commit-interval",
                    // The longest interval, so that sending the bursts (a few round trips) surely fits in the pause.
                    new TransactionalLoop.Turns(Duration.ofSeconds(2), TransactionalLoop.MAX_COMMIT_INTERVAL));
            try (KafkaProducer<String, byte[]> producer = producer(c)) {
                int home = l.home();
                byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
                Batches p = l.firstDecided(producer, topic, value);
                assertThat(p.batches).containsExactly(List.of("first"));

                // The first record after a quiet spell was taken at once; the loop now waits out the interval. Three
                // bursts of fewer records than a second poll needs alone, each acknowledged before the next: the
                // fetch in flight is answered with the first, the others wait at the broker for the second poll.
                List<String> all = new ArrayList<>();
                for (String burst : List.of("a", "b", "c")) {
                    List<String> burstKeys = keys(burst, 5);
                    for (String key : burstKeys) producer.send(new ProducerRecord<>(topic, home, key, value));
                    producer.flush();
                    all.addAll(burstKeys);
                }

                await().atMost(Duration.ofMinutes(1)).until(() -> p.batches.stream().mapToInt(List::size).sum() == 16);
                assertThat(p.batches).containsExactly(List.of("first"), all);
                // The pause is the interval from the first turn's start (its poll's return, just before its first
                // record was applied), so the second batch began no sooner: a lower bound, not a speed.
                assertThat(Duration.ofNanos(p.batchStarts.get(1) - p.batchStarts.get(0)))
                        .isGreaterThan(TransactionalLoop.MAX_COMMIT_INTERVAL.minusMillis(100));
            }
        }
    }

    @Test
    void belowTheRateFromWhichTurnsBatchEachRecordIsDecidedWithoutWaitingOutTheInterval() throws Exception {
        try (TestCluster c = new TestCluster("adaptive-interval")) {
            String topic = c.topics.preemptionRequested();
            // The longest interval, batching from 100 records a second (100 within it): a few lone records stay below.
            // The default second poll: a longer one, after the burst, would itself outlast the interval.
            Loop l = startLoop(c, topic, "adaptive-interval", new TransactionalLoop.Turns(TransactionalLoop.CATCH_UP_WAIT,
                    TransactionalLoop.MAX_COMMIT_INTERVAL, 100));
            try (KafkaProducer<String, byte[]> producer = producer(c)) {
                int home = l.home();
                byte[] value = "{}".getBytes(StandardCharsets.UTF_8);
                Batches p = l.firstDecided(producer, topic, value);

                // Sent as soon as the first was decided: with a fixed interval it would wait out the rest of the second.
                producer.send(new ProducerRecord<>(topic, home, "second", value)).get(30, TimeUnit.SECONDS);
                await().atMost(Duration.ofMinutes(1)).until(() -> p.batches.size() == 2);
                assertThat(p.batches).containsExactly(List.of("first"), List.of("second"));
                assertThat(Duration.ofNanos(p.batchStarts.get(1) - p.batchStarts.get(0)))
                        .isLessThan(TransactionalLoop.MAX_COMMIT_INTERVAL.minusMillis(100));

                // A burst of the rate's worth within the interval is a stream: the turn that reads its last record waits
                // the interval out, so what comes next joins one batch. The lone records first leave the window, so
                // that they do not count towards the burst.
                long secondStart = p.batchStarts.get(1);
                await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(20)).until(() ->
                        System.nanoTime() - secondStart > TransactionalLoop.MAX_COMMIT_INTERVAL.plusMillis(100).toNanos());
                // One produce request (the flush sends what lingered), so one fetch and one turn read the whole burst.
                Properties lingering = new Properties();
                lingering.put(ProducerConfig.LINGER_MS_CONFIG, "60000");
                try (KafkaProducer<String, byte[]> bursts = producer(c, lingering)) {
                    for (String key : keys("burst", 100)) bursts.send(new ProducerRecord<>(topic, home, key, value));
                    bursts.flush();
                }
                await().atMost(Duration.ofMinutes(1)).until(() -> p.batches.stream().mapToInt(List::size).sum() == 102);
                List<String> after = keys("after", 5);
                for (String key : after) producer.send(new ProducerRecord<>(topic, home, key, value));
                producer.flush();
                await().atMost(Duration.ofMinutes(1)).until(() -> p.batches.stream().mapToInt(List::size).sum() == 107);
                assertThat(p.batches.get(p.batches.size() - 1)).isEqualTo(after);
                int burst = p.batches.size() - 2;
                List<Integer> sizes = p.batches.stream().map(List::size).toList();
                assertThat(sizes).as("batch sizes").endsWith(100, 5);
                assertThat(Duration.ofNanos(p.batchStarts.get(burst + 1) - p.batchStarts.get(burst))).as("batch sizes %s", sizes)
                        .isGreaterThan(TransactionalLoop.MAX_COMMIT_INTERVAL.minusMillis(100));
            }
        }
    }

    /** A started loop's processors by partition, and the topic's partition the test writes to (the loop is the cluster's to close). */
    private record Loop(Map<Integer, Batches> processors, int home) {

        /** Sends the record "first" to the home partition and answers its processor once it decided it. */
        Batches firstDecided(KafkaProducer<String, byte[]> producer, String topic, byte[] value) throws Exception {
            producer.send(new ProducerRecord<>(topic, home, "first", value)).get(30, TimeUnit.SECONDS);
            await().atMost(Duration.ofMinutes(1)).until(() -> processors.containsKey(home) && !processors.get(home).batches.isEmpty());
            return processors.get(home);
        }
    }

    /** Starts a loop with these turns and waits until it decides. */
    private static Loop startLoop(TestCluster c, String topic, String name, TransactionalLoop.Turns turns) {
        Map<Integer, Batches> processors = new ConcurrentHashMap<>();
        TransactionalLoop loop = new TransactionalLoop(new TransactionalLoop.Settings(c.client, name + "-" + c.id,
                List.of(topic), List.of(), Set.of(), name + "-" + c.id, "urn:taskgov:test", c.topics.deadLetter(),
                Duration.ofMillis(50), Duration.ofMinutes(1), TransactionalLoop.Membership.KAFKA_DEFAULTS, null, turns),
                (PartitionScope scope) -> processors.computeIfAbsent(scope.partition(), n -> new Batches()), Clock.systemUTC());
        Thread thread = new Thread(loop, name + "-loop");
        thread.setDaemon(true);
        thread.start();
        c.own(loop);
        await().atMost(Duration.ofMinutes(2)).until(loop::isDecider);
        return new Loop(processors, c.home(topic));
    }

    private static KafkaProducer<String, byte[]> producer(TestCluster c) {
        return producer(c, new Properties());
    }

    static KafkaProducer<String, byte[]> producer(TestCluster c, Properties more) {
        Properties pp = new Properties();
        pp.putAll(c.client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.putAll(more);
        return new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
    }

    private static List<String> keys(String prefix, int n) {
        return IntStream.range(0, n).mapToObj(i -> prefix + "-" + i).toList();
    }
}
