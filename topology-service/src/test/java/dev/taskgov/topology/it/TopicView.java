package dev.taskgov.topology.it;

import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/** Reads a topic from its beginning to its current end with a real KafkaConsumer. */
public final class TopicView {

    private TopicView() {
    }

    /** Every record, in offset order per partition. */
    public static List<ConsumerRecord<String, String>> records(String bootstrap, String topic) {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic, Duration.ofSeconds(30)).stream()
                    .map(i -> new TopicPartition(topic, i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (end.entrySet().stream().anyMatch(e -> consumer.position(e.getKey()) < e.getValue())) {
                if (System.nanoTime() > deadline) throw new IllegalStateException("could not read " + topic + " to its end");
                consumer.poll(Duration.ofMillis(200)).forEach(out::add);
            }
        }
        return out;
    }

    /** The last value per key; keys whose last record is a tombstone are left out. */
    public static Map<String, String> compacted(String bootstrap, String topic) {
        Map<String, String> out = new LinkedHashMap<>();
        for (ConsumerRecord<String, String> r : records(bootstrap, topic)) {
            if (r.value() == null) out.remove(r.key());
            else out.put(r.key(), r.value());
        }
        return out;
    }

    public static String header(ConsumerRecord<String, String> r, String name) {
        var h = r.headers().lastHeader(name);
        return h == null ? null : new String(h.value(), java.nio.charset.StandardCharsets.UTF_8);
    }
}
