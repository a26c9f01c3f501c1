package dev.taskgov.bench;

import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bench's exactly-once floor runs the deciders' own loop against a real broker: every record sent is answered on
 * the three output topics in a transaction (read back read_committed), and only the records after the warm-up are
 * measured.
 */
class ExactlyOnceFloorTest {

    @Test
    void everyRecordIsAnsweredOnceOnEachOutputTopicAndTheMeasuredOnesAreTimed() {
        KafkaTopics.createTaskgovTopics(SharedKafka.adminClientProperties()); // the dead-letter topic
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        Properties pp = new Properties();
        pp.putAll(client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        String run = UUID.randomUUID().toString().substring(0, 8);
        List<Long> latencies;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(pp, new StringSerializer(), new StringSerializer())) {
            latencies = ExactlyOnceFloor.measure(client, producer, 5, 20, run);
        }
        assertThat(latencies).hasSize(20).allMatch(ms -> ms >= 0);

        for (String topic : List.of(ExactlyOnceFloor.OUT, ExactlyOnceFloor.ALSO.get(0), ExactlyOnceFloor.ALSO.get(1))) {
            assertThat(answeredKeys(client, topic, run)).as(topic).hasSize(25).doesNotHaveDuplicates();
        }
    }

    /** The keys of this run's committed answers on {@code topic}. */
    private static List<String> answeredKeys(Properties client, String topic, String run) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p, new StringDeserializer(), new StringDeserializer())) {
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            long end = c.endOffsets(List.of(tp)).get(tp);
            while (c.position(tp) < end) {
                for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
                    if (r.key().startsWith(run + "-")) keys.add(r.key());
                }
            }
        }
        return keys;
    }
}
