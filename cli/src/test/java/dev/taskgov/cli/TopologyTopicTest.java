package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** The demo's node failure reads a node's latest record from the real topology topic. */
class TopologyTopicTest {

    @Test
    void theLatestRecordOfANodeIsReadBackAndARemovedOrUnknownNodeHasNone() throws Exception {
        KafkaTopics.createTaskgovTopics(SharedKafka.adminClientProperties());
        String cluster = "arn:aws:sagemaker:us-east-1:123456789012:cluster/" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        NodeRecord node = new NodeRecord("node-1", "i-1", "ml.p5.48xlarge", Map.of("kubernetes.io/hostname", "node-1"),
                new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(192), BigDecimal.valueOf(2048)), true, cluster);
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        Properties producerProps = new Properties();
        producerProps.putAll(client);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(TopologyTopic.TOPIC, cluster + "#node-1", bytes(node))).get();
            producer.send(new ProducerRecord<>(TopologyTopic.TOPIC, cluster + "#node-1",
                    bytes(TopologyTopic.withReady(node, false)))).get();
            producer.send(new ProducerRecord<>(TopologyTopic.TOPIC, cluster + "#node-2", bytes(node))).get();
            producer.send(new ProducerRecord<>(TopologyTopic.TOPIC, cluster + "#node-2", (byte[]) null)).get();
        }

        assertThat(TopologyTopic.latest(client, cluster + "#node-1")).contains(TopologyTopic.withReady(node, false));
        assertThat(TopologyTopic.latest(client, cluster + "#node-2")).isEmpty();
        assertThat(TopologyTopic.latest(client, cluster + "#node-3")).isEmpty();
    }

    private static byte[] bytes(NodeRecord n) {
        return EventCodec.write(n).getBytes(StandardCharsets.UTF_8);
    }
}
