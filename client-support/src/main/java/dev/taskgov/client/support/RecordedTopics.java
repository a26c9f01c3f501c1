package dev.taskgov.client.support;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.sim.whatif.TopicHistory;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;

/**
 * Reads what a what-if replays from the platform's topics: every record of the quota, topology, submission (the shared
 * topic and each team's own), admission, eviction ({@code taskgov.workload.preempted}) and finish topics, each with its
 * record time, for core's
 * {@link TopicHistory} to turn into a cluster's window. Committed records only, outside any consumer group.
 */
public final class RecordedTopics {

    /** The topics' names (their defaults unless renamed). */
    public record Names(String quota, String topology, String submitted, String admitted, String preempted, String finished) {

        public static Names defaults() {
            return new Names(TopicCatalog.Names.QUOTA, TopicCatalog.Names.TOPOLOGY, TopicCatalog.Names.WORKLOAD_SUBMITTED,
                    TopicCatalog.Names.WORKLOAD_ADMITTED, TopicCatalog.Names.WORKLOAD_PREEMPTED, TopicCatalog.Names.WORKLOAD_FINISHED);
        }
    }

    private RecordedTopics() {
    }

    /**
     * Every record of the topics, to their current ends.
     *
     * @throws org.apache.kafka.common.KafkaException when the broker cannot be read (unreachable, this login refused)
     */
    public static List<TopicHistory.Recorded> read(Properties client, Names names, Duration timeout) {
        Map<String, TopicHistory.Source> sources = new HashMap<>();
        sources.put(names.quota(), TopicHistory.Source.QUOTA);
        sources.put(names.topology(), TopicHistory.Source.TOPOLOGY);
        sources.put(names.submitted(), TopicHistory.Source.SUBMITTED);
        sources.put(names.admitted(), TopicHistory.Source.ADMITTED);
        sources.put(names.preempted(), TopicHistory.Source.PREEMPTED);
        sources.put(names.finished(), TopicHistory.Source.FINISHED);
        Pattern teamTopics = KafkaAccess.submissionTopics(names.submitted());
        try (KafkaConsumer<String, byte[]> consumer = CompactedTopicReader.groupless(client)) {
            for (String topic : consumer.listTopics(timeout).keySet()) {
                if (teamTopics.matcher(topic).matches()) sources.put(topic, TopicHistory.Source.SUBMITTED);
            }
        }
        List<TopicHistory.Recorded> out = new ArrayList<>();
        CompactedTopicReader.readAll(client, List.copyOf(sources.keySet()), timeout, (ConsumerRecord<String, byte[]> r) ->
                out.add(new TopicHistory.Recorded(sources.get(r.topic()), Instant.ofEpochMilli(r.timestamp()), r.key(), r.value())));
        return out;
    }
}
