package dev.taskgov.topology.inventory;

import dev.taskgov.service.support.KafkaClientSecurity;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads a compacted topic from the beginning to its end at start-up: the last value per key, keys
 * whose last record is a tombstone left out. Creates the topic (compacted) when it does not exist.
 */
public final class PublishedTopologyReader {

    private PublishedTopologyReader() {
    }

    public static Map<String, String> readAll(String bootstrapServers, String topic, Duration timeout) {
        ensureCompactedTopic(bootstrapServers, topic, timeout);
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.putAll(KafkaClientSecurity.properties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        Map<String, String> out = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            List<TopicPartition> partitions = infos.stream().map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            Instant deadline = Instant.now().plus(timeout);
            while (!caughtUp(consumer, end)) {
                if (Instant.now().isAfter(deadline)) {
                    throw new IllegalStateException("could not read " + topic + " to its end within " + timeout);
                }
                for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                    if (r.key() == null) continue;
                    if (r.value() == null) out.remove(r.key());
                    else out.put(r.key(), r.value());
                }
            }
        }
        return out;
    }

    private static boolean caughtUp(KafkaConsumer<String, String> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }

    private static void ensureCompactedTopic(String bootstrapServers, String topic, Duration timeout) {
        Properties p = new Properties();
        p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        p.putAll(KafkaClientSecurity.properties());
        try (Admin admin = Admin.create(p)) {
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
