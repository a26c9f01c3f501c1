package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * The node records of {@code taskgov.topology} (compacted, key = {@code <ClusterArn>#<node>}), read and written the
 * way topology-service publishes them: for the demo's node failure.
 */
final class TopologyTopic {

    static final String TOPIC = dev.taskgov.core.events.TopicCatalog.Names.TOPOLOGY;
    static final String NODE_EVENT_TYPE = "dev.taskgov.topology.node.v1";

    private TopologyTopic() {
    }

    /** The latest record of a node, or empty when the topic has none (or a tombstone). */
    static Optional<NodeRecord> latest(Properties client, String key, Clock clock) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(p, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(TOPIC).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            byte[] latest = null;
            Instant deadline = clock.instant().plusSeconds(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (clock.instant().isAfter(deadline)) throw CliException.failed("timed out reading " + TOPIC + " at " + client.getProperty("bootstrap.servers"));
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(500))) {
                    if (key.equals(r.key())) latest = r.value();
                }
            }
            return latest == null ? Optional.empty() : Optional.of(EventCodec.read(latest, NodeRecord.class));
        } catch (org.apache.kafka.common.KafkaException e) {
            throw CliException.failed("cannot read Kafka topic " + TOPIC + " at " + client.getProperty("bootstrap.servers") + " (" + e.getMessage()
                    + "); is the broker up, or set --kafka-bootstrap / TASKGOV_KAFKA_BOOTSTRAP (and the login: --kafka-config)");
        }
    }

    /** The same node, ready or not. */
    static NodeRecord withReady(NodeRecord n, boolean ready) {
        return new NodeRecord(n.name(), n.instanceId(), n.instanceType(), n.labels(), n.allocatable(), ready, n.clusterArn());
    }
}
