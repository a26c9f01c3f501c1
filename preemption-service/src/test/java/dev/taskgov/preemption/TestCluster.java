package dev.taskgov.preemption;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.testsupport.DeciderProgress;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * One isolated taskgov "cluster" on the shared real broker: its own topic names (a unique prefix),
 * consumer group and transactional id, so tests never see each other's records.
 */
final class TestCluster implements AutoCloseable {

    final String id;
    final DeciderTopics topics;
    final Properties client = new Properties();
    private final KafkaProducer<String, byte[]> producer;
    private final DeciderProgress progress;
    private final List<AutoCloseable> owned = new ArrayList<>();

    TestCluster(String name) {
        this(name, true);
    }

    /**
     * @param createTopics false: the topics are created later ({@link #createTopics}), and no client of the test's
     *                     deciders creates one by asking for it (the broker would, with 1 partition)
     */
    TestCluster(String name, boolean createTopics) {
        id = name.replaceAll("[^a-zA-Z0-9-]", "-") + "-" + UUID.randomUUID().toString().substring(0, 8);
        topics = DeciderTopics.defaults(TopicCatalog.PREEMPTION_CHANGELOG).prefixed(id);
        client.putAll(SharedKafka.adminClientProperties());
        if (createTopics) createTopics();
        else client.put(org.apache.kafka.clients.consumer.ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, "false");
        Properties pp = new Properties();
        pp.putAll(client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producer = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
        progress = new DeciderProgress(client);
    }

    PreemptionDecider.Settings settings(Map<String, Duration> graces) {
        return new PreemptionDecider.Settings(client, new PreemptionProcessor.Settings(topics, graces, Duration.ofMinutes(5)),
                "preemption-" + id, "preemption-" + id, "urn:taskgov:test", Duration.ofMillis(50), Duration.ofMinutes(2), false);
    }

    /** Creates the topics the deciders use (one partition per cluster, compacted where latest-value). */
    void createTopics() {
        PreemptionDecider.ensureTopics(client, topics);
    }

    PreemptionDecider startDecider(Map<String, Duration> graces, Clock clock) {
        PreemptionDecider d = start(graces, clock);
        await().atMost(Duration.ofMinutes(1)).until(d::isDecider);
        return d;
    }

    /** Starts a decider without waiting for it to decide. */
    PreemptionDecider start(Map<String, Duration> graces, Clock clock) {
        PreemptionDecider d = new PreemptionDecider(settings(graces), clock, PreemptionObserver.NONE);
        d.start();
        owned.add(d);
        return d;
    }

    PreemptionDecider startDecider() {
        return startDecider(Map.of(), Clock.systemUTC());
    }

    /** Sends a JSON value with CloudEvents headers and waits for the ack. */
    void publish(String topic, String key, Object value) {
        publish(topic, key, value, "dev.taskgov.test");
    }

    /** Sends a JSON value with CloudEvents headers of this {@code ce_type} (which the requests topic dispatches on). */
    void publish(String topic, String key, Object value, String type) {
        publishRaw(topic, key, value == null ? null : EventCodec.bytes(value), type);
    }

    /** Sends these bytes without any header. */
    void publishRaw(String topic, String key, byte[] value) {
        send(new ProducerRecord<>(topic, home(topic), key, value));
    }

    /** Sends these bytes with CloudEvents headers of this {@code ce_type}. */
    void publishRaw(String topic, String key, byte[] value, String type) {
        publishRaw(topic, key, value, type, UUID.randomUUID().toString());
    }

    /** Sends these bytes with CloudEvents headers of this {@code ce_type} and {@code ce_id} (null: only spec version and type). */
    void publishRaw(String topic, String key, byte[] value, String type, String ceId) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, home(topic), key, value);
        if (ceId != null) {
            CloudEventHeaders.write(r.headers(), type, "urn:taskgov:test", ceId, Instant.now(), key);
        } else {
            r.headers().add(CloudEvents.SPEC_VERSION, CloudEvents.VERSION_1_0.getBytes(StandardCharsets.UTF_8));
            r.headers().add(CloudEvents.TYPE, type.getBytes(StandardCharsets.UTF_8));
        }
        send(r);
    }

    /** The last value of a record's header as text, or null. */
    static String header(ConsumerRecord<String, byte[]> r, String name) {
        return CloudEventHeaders.text(r.headers(), name);
    }

    /**
     * The unnamed cluster's partition of {@code topic}, where admission writes its records (in order, e.g. admissions
     * in admission order) and where the test's records go too.
     */
    int home(String topic) {
        return dev.taskgov.core.events.ClusterPartitions.of("", producer.partitionsFor(topic).size());
    }

    private void send(ProducerRecord<String, byte[]> r) {
        try {
            producer.send(r).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + r.topic(), e);
        }
    }

    /** Every committed record of a topic, in partition order. */
    List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        CompactedTopicReader.readAll(client, List.of(topic), Duration.ofMinutes(1), out::add);
        return out;
    }

    <T> List<T> readAll(String topic, Class<T> type) {
        return readAll(topic).stream().filter(r -> r.value() != null).map(r -> EventCodec.read(r.value(), type)).toList();
    }

    /**
     * Waits until the decider has committed its work on every request published so far, on every partition (a
     * request on another partition than its cluster's is forwarded there first), and until what it wrote can be
     * read: no transaction is open on the topics it writes ({@link DeciderProgress.QuietCheck}).
     */
    void awaitHandled(PreemptionDecider decider) {
        DeciderProgress.QuietCheck quiet = progress.quietCheck(decider::processedOffsets, List.of(topics.preemptionRequested()),
                writtenByTheDecider());
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(40)).until(() -> decider.isDecider() && quiet.isQuiet());
    }

    /** The topics a preemption decider writes in its transactions (requests forwarded to their cluster's partition too). */
    private List<String> writtenByTheDecider() {
        return List.of(topics.preempted(), topics.status(), topics.changelog(), topics.deadLetter(), topics.preemptionRequested());
    }

    /** Requests the decider has gone past, over every partition of the requests topic. */
    long handled(PreemptionDecider decider) {
        return decider.processedOffsets().entrySet().stream().filter(e -> e.getKey().startsWith(topics.preemptionRequested() + "-"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** Last stable offsets (what read_committed readers reach) of every partition of {@code topic}. */
    Map<TopicPartition, Long> endOffsets(String topic) {
        return progress.endOffsets(topic, IsolationLevel.READ_COMMITTED);
    }

    long endOffset(String topic) {
        List<ConsumerRecord<String, byte[]>> all = readAll(topic);
        return all.isEmpty() ? 0 : all.get(all.size() - 1).offset() + 1;
    }

    void own(AutoCloseable c) {
        owned.add(c);
    }

    @Override
    public void close() {
        for (int i = owned.size() - 1; i >= 0; i--) {
            try {
                owned.get(i).close();
            } catch (Exception e) {
                // best effort: the test JVM ends soon after
            }
        }
        producer.close(Duration.ofSeconds(5));
        progress.close();
    }
}
