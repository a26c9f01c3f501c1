package dev.taskgov.admission;

import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.core.events.WorkloadSubmitted;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The application is wired to a real broker (test-support's shared one): a record written to
 * {@code taskgov.workload.submitted} comes back with its key, value and CloudEvents headers, and the
 * latest-value topics are compacted as docs/architecture.md ("The wire contract") says.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class KafkaRoundTripTest {

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    @Test
    void aRecordRoundTripsThroughTheBroker() throws Exception {
        String workloadId = "team-a-train-" + UUID.randomUUID();
        String value = "{\"workloadId\":\"" + workloadId + "\",\"namespace\":\"hyperpod-ns-team-a\"}";

        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps())) {
            ProducerRecord<String, String> record =
                    new ProducerRecord<>(Names.WORKLOAD_SUBMITTED, workloadId, value);
            record.headers().add("ce_type", WorkloadSubmitted.TYPE.getBytes(StandardCharsets.UTF_8));
            producer.send(record).get(30, TimeUnit.SECONDS);
        }

        List<ConsumerRecord<String, String>> seen = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps())) {
            consumer.subscribe(List.of(Names.WORKLOAD_SUBMITTED));
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                consumer.poll(Duration.ofMillis(200)).forEach(seen::add);
                return seen.stream().anyMatch(r -> workloadId.equals(r.key()));
            });
        }

        ConsumerRecord<String, String> received = seen.stream()
                .filter(r -> workloadId.equals(r.key())).findFirst().orElseThrow();
        assertThat(received.value()).isEqualTo(value);
        assertThat(new String(received.headers().lastHeader("ce_type").value(), StandardCharsets.UTF_8))
                .isEqualTo(WorkloadSubmitted.TYPE);
    }

    @Test
    void latestValueTopicsAreCompactedAndEventTopicsAreNot() throws Exception {
        Properties props = new Properties();
        props.putAll(SharedKafka.adminClientProperties());
        try (Admin admin = Admin.create(props)) {
            Map<String, String> cleanupPolicy = new java.util.TreeMap<>();
            for (String topic : List.of(Names.WORKLOAD_STATUS, Names.QUOTA,
                    Names.TOPOLOGY, Names.WORKLOAD_SUBMITTED, Names.DEADLETTER)) {
                ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
                Config config = admin.describeConfigs(List.of(resource)).all().get(30, TimeUnit.SECONDS).get(resource);
                cleanupPolicy.put(topic, config.get(TopicConfig.CLEANUP_POLICY_CONFIG).value());
            }
            assertThat(cleanupPolicy).containsExactlyInAnyOrderEntriesOf(Map.of(
                    Names.WORKLOAD_STATUS, "compact",
                    Names.QUOTA, "compact",
                    Names.TOPOLOGY, "compact",
                    Names.WORKLOAD_SUBMITTED, "delete",
                    Names.DEADLETTER, "delete"));
        }
    }

    private Properties producerProps() {
        Properties props = new Properties();
        props.putAll(SharedKafka.adminClientProperties());
        props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        return props;
    }

    private Properties consumerProps() {
        Properties props = new Properties();
        props.putAll(SharedKafka.adminClientProperties());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, "round-trip-" + UUID.randomUUID());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        return props;
    }
}
