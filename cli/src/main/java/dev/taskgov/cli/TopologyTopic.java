package dev.taskgov.cli;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.core.events.NodeTranslator;
import dev.taskgov.core.events.Translation;
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
            if (latest == null) return Optional.empty();
            // read as every service reads it: a record they refuse is not a node to change
            Translation<NodeRecord> read = NodeTranslator.translate(latest);
            if (read instanceof Translation.Refused<NodeRecord> refused) {
                throw CliException.failed("the record of " + key + " on " + TOPIC + " is not a node every service reads: " + refused.reason());
            }
            return Optional.of(((Translation.Translated<NodeRecord>) read).value());
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
