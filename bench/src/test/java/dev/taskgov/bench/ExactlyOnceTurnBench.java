package dev.taskgov.bench;

import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The exactly-once turn on the test broker: {@link ExactlyOnceFloor}'s loop, one record every 10 ms, measured
 * {@code taskgov.bench.rounds} times ({@code taskgov.bench.samples} records each after 300 unmeasured), each round with
 * the input offsets committed to the group in the transaction, then recorded in the changelog (the deciders' way).
 * Prints and writes to {@code target/exactly-once-turn.txt} each run's commit time per turn (the end of the batch to
 * the committed transaction) and send-to-read-back latency, p50 and p99. Run by name only (not a {@code *Test}):
 * <pre>
 * ./mvnw -B -o -q -pl bench -am test -Dtest=ExactlyOnceTurnBench -Dsurefire.failIfNoSpecifiedTests=false
 * </pre>
 */
class ExactlyOnceTurnBench {

    @Test
    void measuresTheTurnsCommitAndTheRoundTrip() throws IOException {
        int rounds = Integer.getInteger("taskgov.bench.rounds", 3);
        int samples = Integer.getInteger("taskgov.bench.samples", 1_000);
        KafkaTopics.createTaskgovTopics(SharedKafka.adminClientProperties()); // the dead-letter topic
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        Properties pp = new Properties();
        pp.putAll(client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        List<String> lines = new ArrayList<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
            for (int round = 1; round <= rounds; round++) {
                for (boolean inChangelog : new boolean[] {false, true}) {
                    String run = UUID.randomUUID().toString().substring(0, 8);
                    ExactlyOnceFloor.Figures f = ExactlyOnceFloor.measureTurns(client, producer, 300, samples, run, inChangelog);
                    assertThat(f.latencies()).hasSize(samples);
                    String line = String.format("round %d, offsets %s: commit per turn p50 %.1f ms, p99 %.1f ms (%d turns); "
                                    + "send->read back p50 %d ms, p99 %d ms", round,
                            inChangelog ? "in the changelog" : "to the group  ", percentile(f.commitMicros(), 50) / 1000.0,
                            percentile(f.commitMicros(), 99) / 1000.0, f.commitMicros().size(), percentile(f.latencies(), 50),
                            percentile(f.latencies(), 99));
                    System.out.println(line);
                    lines.add(line);
                }
            }
        }
        Files.write(Path.of("target", "exactly-once-turn.txt"), lines);
    }

    private static long percentile(List<Long> values, int p) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(p / 100.0 * sorted.size()) - 1));
    }
}
