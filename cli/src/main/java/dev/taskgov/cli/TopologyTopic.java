package dev.taskgov.cli;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.client.support.CompactedTopicReader;
import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.time.Duration;
import java.util.Optional;
import java.util.Properties;

/**
 * The node records of {@code taskgov.topology} (compacted, key = {@code <ClusterArn>#<node>}), read and written the
 * way topology-service publishes them: for the demo's node failure.
 */
final class TopologyTopic {

    static final String TOPIC = dev.taskgov.core.events.TopicCatalog.Names.TOPOLOGY;

    private TopologyTopic() {
    }

    /** The latest record of a node, or empty when the topic has none (or a tombstone). */
    static Optional<NodeRecord> latest(Properties client, String key) {
        Properties p = new Properties();
        p.putAll(client);
        p.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "10000");
        try {
            byte[] latest = CompactedTopicReader.latestByKey(p, TOPIC, Duration.ofSeconds(30)).get(key);
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
