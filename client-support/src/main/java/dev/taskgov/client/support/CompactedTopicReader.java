package dev.taskgov.client.support;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.Deserializer;
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
        try (KafkaConsumer<String, byte[]> consumer = groupless(clientProps)) {
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
            readTo(consumer, end, timeout, Duration.ofMillis(200), topics.toString(), sink);
            return end;
        }
    }

    /**
     * A consumer outside any consumer group (it is assigned its partitions and commits nothing; the group and
     * static-membership settings of the service's client are dropped) that sees committed records only
     * (read_committed): how every state reader reads, whether once to the end or following the topics.
     */
    public static KafkaConsumer<String, byte[]> groupless(Properties clientProps) {
        return groupless(clientProps, new ByteArrayDeserializer());
    }

    /** {@link #groupless(Properties)} with values read by {@code values}. */
    public static <V> KafkaConsumer<String, V> groupless(Properties clientProps, Deserializer<V> values) {
        Properties props = new Properties();
        props.putAll(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        return new KafkaConsumer<>(props, new StringDeserializer(), values);
    }

    /**
     * Polls the consumer until its position reaches {@code end} in every partition there, passing each record to the
     * sink.
     *
     * @param pollInterval how long one poll waits for records
     * @param what         what is read, for the error
     * @throws TimeoutException when {@code timeout} passes first
     */
    public static <V> void readTo(KafkaConsumer<String, V> consumer, Map<TopicPartition, Long> end, Duration timeout,
                                  Duration pollInterval, String what, Consumer<ConsumerRecord<String, V>> sink) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!reached(consumer, end, timeout)) {
            if (System.nanoTime() > deadline) {
                throw new TimeoutException("could not read " + what + " to its end within " + timeout);
            }
            consumer.poll(pollInterval).forEach(sink);
        }
    }

    private static boolean reached(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end, Duration timeout) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) return false;
        }
        return true;
    }
}
