package dev.taskgov.preemption;

import dev.taskgov.client.support.CompactedTopicReader;
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
    /** State topics that had no partitions when the reader opened: without this a reader opened then would never read them. */
    private final java.util.Set<String> missing = new java.util.HashSet<>();
    /**
     * How often {@link #follow} and {@link #catchUp} look for new topics unasked: a listing is a broker round trip, and
     * they run every loop turn and before every plan.
     */
    private static final Duration TOPIC_SCAN_SPACING = Duration.ofSeconds(10);
    private long lastTopicScan = System.nanoTime();

    /**
     * @param topics     the state topics; one without partitions yet (created moments ago, not in the broker's
     *                   metadata yet) is looked for again like those of {@code moreTopics}, and read from its beginning
     * @param moreTopics the topics matching it are read too, also those created later (each team's submission
     *                   topic): they are looked for as {@link #catchUp} says
     */
    StateTopicsReader(Properties clientProps, List<String> topics, Pattern moreTopics, Duration timeout) {
        this.timeout = timeout;
        this.moreTopics = moreTopics;
        consumer = CompactedTopicReader.groupless(clientProps);
        for (String topic : topics) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
            if (infos == null || infos.isEmpty()) {
                missing.add(topic);
                continue;
            }
            infos.forEach(i -> partitions.add(new TopicPartition(i.topic(), i.partition())));
            known.add(topic);
        }
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Adds the topics matching {@code moreTopics}, and the state topics missing so far, that are not read yet, from their beginning. */
    private void addNewTopics() {
        lastTopicScan = System.nanoTime();
        List<TopicPartition> added = new ArrayList<>();
        for (Map.Entry<String, List<PartitionInfo>> t : consumer.listTopics(timeout).entrySet()) {
            if (known.contains(t.getKey()) || t.getValue().isEmpty()
                    || !(missing.contains(t.getKey()) || moreTopics.matcher(t.getKey()).matches())) continue;
            known.add(t.getKey());
            missing.remove(t.getKey());
            t.getValue().forEach(i -> added.add(new TopicPartition(i.topic(), i.partition())));
        }
        if (added.isEmpty()) return;
        partitions.addAll(added);
        consumer.assign(partitions);
        consumer.seekToBeginning(added);
    }

    /**
     * Passes the records fetched since the last call to the sink, without waiting for more (a warm standby's step);
     * looks for new topics matching {@code moreTopics} (and state topics missing so far) at most every
     * {@link #TOPIC_SCAN_SPACING}. Answers whether every state topic is read and at its end as of the last fetch.
     */
    boolean follow(Consumer<ConsumerRecord<String, byte[]>> sink) {
        if (scanDue()) addNewTopics();
        if (partitions.isEmpty()) return false; // nothing assigned: a poll would throw
        consumer.poll(Duration.ZERO).forEach(sink);
        return missing.isEmpty() && partitions.stream().allMatch(tp -> consumer.currentLag(tp).orElse(1) == 0);
    }

    /**
     * Passes every record committed since the last call (up to the end offsets of now) to the sink. New topics are
     * looked for first when {@code lookForTopics}, when a state topic is still missing, or at most every
     * {@link #TOPIC_SCAN_SPACING}: a listing is a metadata request of every topic, and this runs before every plan.
     */
    void catchUp(Consumer<ConsumerRecord<String, byte[]>> sink, boolean lookForTopics) {
        if (lookForTopics || !missing.isEmpty() || scanDue()) addNewTopics();
        if (partitions.isEmpty()) return;
        CompactedTopicReader.readTo(consumer, consumer.endOffsets(partitions, timeout), timeout, Duration.ofMillis(50),
                "the state topics", sink);
    }

    private boolean scanDue() {
        return System.nanoTime() - lastTopicScan > TOPIC_SCAN_SPACING.toNanos();
    }

    @Override
    public void close() {
        consumer.close(Duration.ofSeconds(2));
    }
}
