package dev.taskgov.topology.inventory;

import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.KafkaClientSecurity;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a compacted topic from the beginning to its end at start-up ({@link CompactedTopicReader}): the last value per
 * key, keys whose last record is a tombstone left out. Creates the topic (compacted) when it does not exist.
 */
public final class PublishedTopologyReader {

    private PublishedTopologyReader() {
    }

    public static Map<String, String> readAll(String bootstrapServers, String topic, Duration timeout) {
        ensureCompactedTopic(bootstrapServers, topic, timeout);
        Properties p = KafkaClientSecurity.client(bootstrapServers);
        Map<String, String> out = new HashMap<>();
        CompactedTopicReader.latestByKey(p, topic, timeout)
                .forEach((key, value) -> out.put(key, new String(value, StandardCharsets.UTF_8)));
        return out;
    }

    private static void ensureCompactedTopic(String bootstrapServers, String topic, Duration timeout) {
        try (Admin admin = Admin.create(KafkaClientSecurity.client(bootstrapServers))) {
            if (admin.listTopics().names().get(timeout.toMillis(), TimeUnit.MILLISECONDS).contains(topic)) return;
            admin.createTopics(List.of(new NewTopic(topic, Optional.empty(), Optional.empty())
                    .configs(Map.of("cleanup.policy", "compact")))).all().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) {
                throw new IllegalStateException("cannot create topic " + topic + ": " + e.getCause().getMessage(), e.getCause());
            }
        } catch (TimeoutException e) {
            throw new IllegalStateException("the broker did not answer about topic " + topic + " within " + timeout, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while creating " + topic, e);
        }
    }
}
