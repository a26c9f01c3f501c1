package dev.taskgov.preemption;

import dev.taskgov.service.support.CompactedTopicReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.function.Consumer;

/**
 * Reads the state topics from the beginning, without a consumer group (read_committed: the consumer of
 * {@link CompactedTopicReader#groupless}), and on demand up to their end offsets as of the call: before each plan,
 * the view then holds everything committed so far, at least what admission saw when it asked.
 */
final class StateTopicsReader implements AutoCloseable {

    private final KafkaConsumer<String, byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Duration timeout;

    private final Pattern moreTopics;
    private final java.util.Set<String> known = new java.util.HashSet<>();

    /**
     * @param topics     the state topics
     * @param moreTopics the topics matching it are read too, also those created later (each team's submission
     *                   topic): they are looked for at each {@link #catchUp}
     */
    StateTopicsReader(Properties clientProps, List<String> topics, Pattern moreTopics, Duration timeout) {
        this.timeout = timeout;
        this.moreTopics = moreTopics;
        consumer = CompactedTopicReader.groupless(clientProps);
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos != null) infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            known.add(topic);
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Adds the topics matching {@code moreTopics} that are not read yet, from their beginning. */
    private void addNewTopics() {
        List<TopicPartition> added = new ArrayList<>();
        for (Map.Entry<String, List<PartitionInfo>> t : consumer.listTopics(timeout).entrySet()) {
            if (known.contains(t.getKey()) || !moreTopics.matcher(t.getKey()).matches()) continue;
            known.add(t.getKey());
            t.getValue().forEach(i -> added.add(new TopicPartition(i.topic(), i.partition())));
        }
        if (added.isEmpty()) return;
        partitions.addAll(added);
        consumer.assign(partitions);
        consumer.seekToBeginning(added);
    }

    /** Passes every record committed since the last call (up to the end offsets of now) to the sink. */
    void catchUp(Consumer<ConsumerRecord<String, byte[]>> sink) {
        addNewTopics();
        if (partitions.isEmpty()) return;
        CompactedTopicReader.readTo(consumer, consumer.endOffsets(partitions, timeout), timeout, Duration.ofMillis(50),
                "the state topics", sink);
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
