package dev.taskgov.testsupport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What the live harnesses' quiet check sees on the real broker, with a transaction left open or committed. */
class DeciderProgressTest {

    /** Fresh two-partition topics per test: the deciders' inputs and what they write. */
    private final String input = topic("input");
    private final String output = topic("output");
    private DeciderProgress progress;
    /** A producer as the tests' own (no transaction). */
    private KafkaProducer<String, String> plain;
    /** A producer as a decider's (transactional). */
    private KafkaProducer<String, String> decider;

    @BeforeEach
    void clients() {
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        progress = new DeciderProgress(client);
        plain = producer(client, null);
        decider = producer(client, "decider-" + UUID.randomUUID());
    }

    @AfterEach
    void close() {
        decider.close(Duration.ofSeconds(5));
        plain.close(Duration.ofSeconds(5));
        progress.close();
    }

    @Test
    void anOpenTransactionHoldsTheLastStableOffsetBackUntilItsCommitMarkerIsWritten() throws Exception {
        plain.send(new ProducerRecord<>(input, 0, "k", "v")).get(30, TimeUnit.SECONDS);
        plain.send(new ProducerRecord<>(input, 0, "k", "v")).get(30, TimeUnit.SECONDS);
        assertThat(progress.endOffsets(input, IsolationLevel.READ_UNCOMMITTED))
                .isEqualTo(Map.of(new TopicPartition(input, 0), 2L, new TopicPartition(input, 1), 0L));
        assertThat(progress.noTransactionOpen(List.of(input, output))).isTrue();

        decider.initTransactions();
        decider.beginTransaction();
        decider.send(new ProducerRecord<>(output, 1, "k", "decision")).get(30, TimeUnit.SECONDS);
        assertThat(progress.endOffsets(output, IsolationLevel.READ_COMMITTED)).containsEntry(new TopicPartition(output, 1), 0L);
        assertThat(progress.endOffsets(output, IsolationLevel.READ_UNCOMMITTED)).containsEntry(new TopicPartition(output, 1), 1L);
        assertThat(progress.noTransactionOpen(List.of(input, output))).isFalse();

        decider.commitTransaction();
        await().atMost(Duration.ofSeconds(30)).until(() -> progress.noTransactionOpen(List.of(output)));
        // the record and its commit marker
        assertThat(progress.endOffsets(output, IsolationLevel.READ_COMMITTED)).containsEntry(new TopicPartition(output, 1), 2L);
    }

    @Test
    void quietTakesEveryInputProcessedAtTwoLooksWithTheSameEndsAndNoTransactionOpenOnTheOutputs()
            throws Exception {
        plain.send(new ProducerRecord<>(input, 1, "k", "v")).get(30, TimeUnit.SECONDS);
        Map<String, Long> processed = new HashMap<>(Map.of(input + "-0", 0L, input + "-1", 0L));

        assertThat(progress.inputEndsIfAllProcessed(() -> processed, List.of(input))).as("one record to go").isNull();
        processed.put(input + "-1", 1L);
        assertThat(progress.inputEndsIfAllProcessed(() -> processed, List.of(input)))
                .isEqualTo(Map.of(new TopicPartition(input, 0), 0L, new TopicPartition(input, 1), 1L));

        DeciderProgress.QuietCheck quiet = progress.quietCheck(() -> processed, List.of(input), List.of(output));
        assertThat(quiet.isQuiet()).as("first look: the ends may still move").isFalse();
        assertThat(quiet.isQuiet()).isTrue();

        decider.initTransactions();
        decider.beginTransaction();
        decider.send(new ProducerRecord<>(output, 0, "k", "decision")).get(30, TimeUnit.SECONDS);
        assertThat(quiet.isQuiet()).as("what the decider writes is not readable yet").isFalse();
        decider.commitTransaction();
        await().atMost(Duration.ofSeconds(30)).until(quiet::isQuiet);

        plain.send(new ProducerRecord<>(input, 0, "k", "v")).get(30, TimeUnit.SECONDS);
        assertThat(quiet.isQuiet()).as("a new input record").isFalse();
        processed.put(input + "-0", 1L);
        assertThat(quiet.isQuiet()).as("processed, but the previous look found work to do").isFalse();
        assertThat(quiet.isQuiet()).isTrue();
    }

    @Test
    void severalDecidersOffsetsMergeToTheFurthestPerPartition() {
        assertThat(DeciderProgress.furthest(List.of(Map.of("a-0", 5L, "a-1", 2L), Map.of("a-1", 7L, "b-0", 1L))))
                .isEqualTo(Map.of("a-0", 5L, "a-1", 7L, "b-0", 1L));
    }

    private static String topic(String name) {
        String topic = "progress-" + name + "-" + UUID.randomUUID().toString().substring(0, 8);
        KafkaTopics.create(SharedKafka.adminClientProperties(), List.of(new TopicSpec(topic, 2, false)));
        return topic;
    }

    private static KafkaProducer<String, String> producer(Properties client, String transactionalId) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        if (transactionalId != null) p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        return new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }
}
