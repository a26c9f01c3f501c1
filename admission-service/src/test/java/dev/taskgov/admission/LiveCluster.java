package dev.taskgov.admission;

import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.testsupport.DeciderProgress;
import dev.taskgov.testsupport.SharedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * One isolated taskgov "cluster" on the shared real broker: its own topic names (a unique
 * prefix), consumer groups and transactional ids, so tests never see each other's records.
 */
final class LiveCluster implements AutoCloseable {

    final String id;
    final DeciderTopics topics;
    final Properties client = new Properties();
    private final KafkaProducer<String, byte[]> producer;
    private final Admin admin;
    private final DeciderProgress progress;
    private final List<AutoCloseable> owned = new ArrayList<>();

    LiveCluster(String name) {
        id = name.replaceAll("[^a-zA-Z0-9-]", "-") + "-" + UUID.randomUUID().toString().substring(0, 8);
        topics = DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG).prefixed(id);
        client.putAll(SharedKafka.adminClientProperties());
        AdmissionDecider.ensureTopics(client, topics);
        Properties pp = new Properties();
        pp.putAll(client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producer = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
        admin = Admin.create(client);
        progress = new DeciderProgress(client);
    }

    AdmissionDecider.Settings deciderSettings() {
        return new AdmissionDecider.Settings(client, topics, "admission-" + id, "admission-" + id, "urn:taskgov:test",
                Duration.ofMillis(50), Duration.ofMinutes(2), false);
    }

    /**
     * Waits until the deciders' consumer group has {@code members} members and is stable: a decider that
     * just started has joined, so no rebalance is still to come when the test then waits for quiet.
     */
    void awaitGroupStable(int members) {
        String group = deciderSettings().groupId();
        await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(100)).until(() -> {
            var d = admin.describeConsumerGroups(List.of(group)).all().get(30, TimeUnit.SECONDS).get(group);
            return d.members().size() == members && d.groupState() == org.apache.kafka.common.GroupState.STABLE;
        });
    }

    AdmissionDecider startDecider(Clock clock) {
        return startDecider(clock, AdmissionObserver.NONE);
    }

    AdmissionDecider startDecider(Clock clock, AdmissionObserver observer) {
        return startDecider(clock, observer, AdmissionProcessor.DEFAULT_RETENTION);
    }

    /** A decider with gang admission's setting of each cluster (docs/semantics.md, "Gang admission"). */
    AdmissionDecider startDecider(Clock clock, AdmissionObserver observer, WaitForPodsReadyByCluster waitForPodsReady) {
        AdmissionDecider d = new AdmissionDecider(deciderSettings().withWaitForPodsReady(waitForPodsReady), clock, observer);
        d.start();
        owned.add(d);
        return d;
    }

    /** A decider that forgets ended workloads after {@code retention} by {@code clock}. */
    AdmissionDecider startDecider(Clock clock, AdmissionObserver observer, dev.taskgov.core.model.FinishedRetention retention) {
        AdmissionDecider d = new AdmissionDecider(deciderSettings(), clock, observer, retention);
        d.start();
        owned.add(d);
        return d;
    }

    /** Sends a JSON value; with {@code cloudEvents} it carries binary-mode ce_* headers. */
    void publish(String topic, String key, Object value, boolean cloudEvents) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, key, value == null ? null : EventCodec.bytes(value));
        if (cloudEvents) {
            CloudEventHeaders.write(r.headers(), "dev.taskgov.test", "urn:taskgov:test", UUID.randomUUID().toString(),
                    Instant.now(), key);
        }
        send(r);
    }

    void publishRaw(String topic, String key, byte[] value) {
        send(new ProducerRecord<>(topic, key, value));
    }

    /** Sends raw bytes to one partition (e.g. the unnamed cluster's, {@link #homePartition}). */
    void publishRaw(String topic, int partition, String key, byte[] value) {
        send(new ProducerRecord<>(topic, partition, key, value));
    }

    /** The partition of the unnamed cluster's records on {@code topic} (ClusterPartitions). */
    int homePartition(String topic) {
        return dev.taskgov.core.events.ClusterPartitions.of(dev.taskgov.core.cluster.ClusterArn.UNNAMED.value(),
                producer.partitionsFor(topic).size());
    }

    private void send(ProducerRecord<String, byte[]> r) {
        try {
            producer.send(r).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + r.topic(), e);
        }
    }

    /** Sends without waiting for each ack (bursts); {@link #flush()} waits for all. */
    void publishAsync(String topic, String key, Object value) {
        producer.send(new ProducerRecord<>(topic, key, EventCodec.bytes(value)));
    }

    void flush() {
        producer.flush();
    }

    /** Every committed record of a topic, in partition order. */
    List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        dev.taskgov.client.support.CompactedTopicReader.readAll(client, List.of(topic), Duration.ofMinutes(1), out::add);
        return out;
    }

    /**
     * Waits until the decider has processed every input record and what it wrote can be read
     * ({@link DeciderProgress.QuietCheck}). No preemption-service runs beside it here (the tests with both deciders
     * are in the {@code it} module): a preemption request it publishes stays unanswered.
     */
    void awaitQuiet(AdmissionDecider decider) {
        awaitQuiet(List.of(decider));
    }

    /**
     * As above, the candidates sharing the partitions between them (each input partition processed by its owner);
     * answers the one deciding for the default cluster.
     */
    AdmissionDecider awaitQuiet(List<AdmissionDecider> candidates) {
        // the decider's inputs (taskgov.preemption.requested is preemption-service's), and what it writes: forwarded
        // copies on its group topics, its decisions, the requests to preemption-service, dead letters
        List<String> inputs = List.of(topics.submitted(), topics.finished(), topics.preempted(), topics.podsReady(), topics.quota(),
                topics.topology());
        List<String> written = List.of(topics.submitted(), topics.finished(), topics.preempted(), topics.podsReady(),
                topics.admitted(), topics.status(),
                topics.changelog(), topics.preemptionRequested(), topics.deadLetter());
        DeciderProgress.QuietCheck quiet = progress.quietCheck(() -> DeciderProgress.furthest(candidates.stream()
                .filter(AdmissionDecider::isDecider).map(AdmissionDecider::processedOffsets).toList()), inputs, written);
        AdmissionDecider[] found = new AdmissionDecider[1];
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(40)).until(() -> {
            found[0] = candidates.stream().filter(AdmissionDecider::decidesDefaultCluster).findFirst().orElse(null);
            return found[0] != null && quiet.isQuiet();
        });
        return found[0];
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
        admin.close(Duration.ofSeconds(5));
        progress.close();
    }
}
