package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Reads topics from the beginning up to their end as of the call (the last stable offset, with
 * read_committed), without a consumer group. Used to rebuild state from compacted topics.
 */
public final class CompactedTopicReader {

    private CompactedTopicReader() {
    }

    /** Which partitions of a topic to read, knowing how many it has. */
    @FunctionalInterface
    public interface PartitionFilter {
        PartitionFilter ALL = (partition, partitions) -> true;

        boolean read(int partition, int partitions);

        /**
         * The partition of {@code scope} when the topic is split like the scope's inputs; every partition
         * otherwise (the reader then keeps the records of the scope's clusters itself).
         */
        static PartitionFilter of(PartitionScope scope) {
            return (partition, partitions) -> partitions != scope.partitions() || partition == scope.partition();
        }
    }

    /** The latest value per key (insertion order = order of last write); tombstones remove keys. */
    public static Map<String, byte[]> latestByKey(Properties clientProps, String topic, Duration timeout) {
        return latestByKey(clientProps, topic, timeout, PartitionFilter.ALL);
    }

    /** The latest value per key in the partitions of {@code topic} that {@code which} accepts. */
    public static Map<String, byte[]> latestByKey(Properties clientProps, String topic, Duration timeout,
                                                  PartitionFilter which) {
        Map<String, byte[]> latest = new LinkedHashMap<>();
        readAll(clientProps, List.of(topic), timeout, which, r -> {
            latest.remove(r.key());
            if (r.value() != null) latest.put(r.key(), r.value());
        });
        return latest;
    }

    /**
     * Passes every record of the topics, in partition order, to the sink, and answers the end
     * offsets reached. A topic that does not exist yet counts as empty.
     */
    public static Map<TopicPartition, Long> readAll(Properties clientProps, List<String> topics, Duration timeout,
                                                    Consumer<ConsumerRecord<String, byte[]>> sink) {
        return readAll(clientProps, topics, timeout, PartitionFilter.ALL, sink);
    }

    /** {@link #readAll(Properties, List, Duration, Consumer)} of the partitions {@code which} accepts. */
    public static Map<TopicPartition, Long> readAll(Properties clientProps, List<String> topics, Duration timeout,
                                                    PartitionFilter which,
                                                    Consumer<ConsumerRecord<String, byte[]>> sink) {
        Properties props = new Properties();
        props.putAll(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : topics) {
                List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
                if (infos == null) continue;
                infos.stream().filter(i -> which.read(i.partition(), infos.size()))
                        .forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = new HashMap<>(consumer.endOffsets(partitions, timeout));
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reached(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new TimeoutException("could not read " + topics + " to its end within " + timeout);
                }
                consumer.poll(Duration.ofMillis(200)).forEach(sink);
            }
            return end;
        }
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }
}
