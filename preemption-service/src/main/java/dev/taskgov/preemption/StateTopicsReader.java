package dev.taskgov.preemption;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Consumer;

/**
 * Reads the state topics from the beginning, without a consumer group (read_committed), and on
 * demand up to their end offsets as of the call: before each plan, the view then holds everything
 * committed so far, at least what admission saw when it asked.
 */
final class StateTopicsReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Duration timeout;

    StateTopicsReader(Properties clientProps, List<String> topics, Duration timeout) {
        this.timeout = timeout;
        Properties props = new Properties();
        props.putAll(clientProps);
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        props.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        consumer = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos != null) infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Passes every record committed since the last call (up to the end offsets of now) to the sink. */
    void catchUp(Consumer<ConsumerRecord<String, byte[]>> sink) {
        if (partitions.isEmpty()) return;
        Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
        long deadline = System.nanoTime() + timeout.toNanos();
        while (behind(end)) {
            if (System.nanoTime() > deadline) throw new KafkaException("state topics not read to their end within " + timeout);
            consumer.poll(Duration.ofMillis(50)).forEach(sink);
        }
    }

    private boolean behind(Map<TopicPartition, Long> end) {
        for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
            if (consumer.position(e.getKey(), timeout) < e.getValue()) return true;
        }
        return false;
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
