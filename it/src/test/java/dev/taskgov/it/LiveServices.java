package dev.taskgov.it;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.AdmissionObserver;
import dev.taskgov.admission.WaitForPodsReadyByCluster;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.preemption.PreemptionDecider;
import dev.taskgov.preemption.PreemptionObserver;
import dev.taskgov.preemption.PreemptionProcessor;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPodsReady;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.service.support.ClusterChangeRecords;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.testsupport.DeciderProgress;
import dev.taskgov.testsupport.SharedKafka;
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
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * One isolated taskgov cluster on the shared real broker, served by the real admission decider
 * and the real preemption decider (the same classes the two services run), on topics with a
 * unique prefix.
 */
final class LiveServices implements AutoCloseable {

    final String id;
    final DeciderTopics admissionTopics;
    final DeciderTopics preemptionTopics;
    final Properties client = new Properties();
    private final KafkaProducer<String, byte[]> producer;
    private final DeciderProgress progress;
    private final List<AutoCloseable> owned = new ArrayList<>();
    AdmissionDecider admission;
    PreemptionDecider preemption;

    LiveServices(String name) {
        id = name.replaceAll("[^a-zA-Z0-9-]", "-") + "-" + UUID.randomUUID().toString().substring(0, 8);
        preemptionTopics = DeciderTopics.defaults(TopicCatalog.PREEMPTION_CHANGELOG).prefixed(id);
        admissionTopics = DeciderTopics.defaults(TopicCatalog.ADMISSION_CHANGELOG).prefixed(id);
        client.putAll(SharedKafka.adminClientProperties());
        AdmissionDecider.ensureTopics(client, admissionTopics);
        PreemptionDecider.ensureTopics(client, preemptionTopics);
        Properties pp = new Properties();
        pp.putAll(client);
        pp.put(ProducerConfig.ACKS_CONFIG, "all");
        pp.put(ProducerConfig.LINGER_MS_CONFIG, "5");
        producer = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
        progress = new DeciderProgress(client);
    }

    AdmissionDecider startAdmission() {
        return startAdmission(AdmissionObserver.NONE);
    }

    /** Starts an admission decider (another member of the same group when one runs already) reporting to {@code observer}. */
    AdmissionDecider startAdmission(AdmissionObserver observer) {
        return startAdmission(Clock.systemUTC(), observer, WaitForPodsReadyByCluster.OFF);
    }

    /**
     * Starts an admission decider on {@code clock} (a test's virtual time) with gang admission's setting of each
     * cluster, reporting to {@code observer}.
     */
    AdmissionDecider startAdmission(Clock clock, AdmissionObserver observer, WaitForPodsReadyByCluster waitForPodsReady) {
        AdmissionDecider a = new AdmissionDecider(new AdmissionDecider.Settings(client, admissionTopics, "admission-" + id,
                "admission-" + id, "urn:taskgov:admission-service", Duration.ofMillis(50), Duration.ofMinutes(2), false)
                .withWaitForPodsReady(waitForPodsReady), clock, observer);
        a.start();
        owned.add(a);
        admission = a;
        return a;
    }

    PreemptionDecider startPreemption(Map<String, Duration> graces) {
        PreemptionDecider p = new PreemptionDecider(new PreemptionDecider.Settings(client,
                new PreemptionProcessor.Settings(preemptionTopics, graces, Duration.ofMinutes(5)), "preemption-" + id,
                "preemption-" + id, "urn:taskgov:preemption-service", Duration.ofMillis(50), Duration.ofMinutes(2), false),
                Clock.systemUTC(), PreemptionObserver.NONE);
        p.start();
        owned.add(p);
        preemption = p;
        return p;
    }

    /**
     * Publishes a scenario's cluster as quota- and topology-service would (scheduler config, quotas,
     * nodes), starts both deciders (no grace periods) and waits until they have read it.
     */
    void startWith(Scenario scenario) {
        publishStart(scenario, ScenarioCluster.UNNAMED);
        startAdmission();
        startPreemption(Map.of());
        awaitQuiet();
    }

    /**
     * Publishes a scenario's starting cluster in {@code in} (a named cluster is declared first, as topology-service
     * declares the clusters it discovers): scheduler config, quotas, nodes.
     */
    void publishStart(Scenario scenario, ScenarioCluster in) {
        if (!in.cluster().isUnnamed()) {
            publish(admissionTopics.topology(), ClusterScopedKey.declaration(in.cluster()),
                    new ClusterDeclared(in.cluster().value(), in.cluster().shortId(), "static", null));
        }
        for (ClusterChangeRecords c : ClusterChangeRecords.start(scenario, in.cluster())) publish(c);
    }

    /** {@link #publishStep(Scenario.Step, Instant, ScenarioCluster)} in a deployment of one scenario. */
    void publishStep(Scenario.Step step, Instant time) {
        publishStep(step, time, ScenarioCluster.UNNAMED);
    }

    /**
     * Publishes one scenario step (not an expect or advance step) at {@code time} in the scenario's cluster: a
     * submission (submitted at {@code time} unless it says when), a finish or a readiness report as an event, a
     * cluster change as the record topology- or quota-service would publish.
     */
    void publishStep(Scenario.Step step, Instant time, ScenarioCluster in) {
        if (step instanceof Scenario.Submit s) {
            WorkloadSubmitted w = in.submission(s.workload().submittedAt() == null ? s.workload().withSubmittedAt(time) : s.workload());
            publish(admissionTopics.submitted(), w.workloadId(), w);
        } else if (step instanceof Scenario.Finish f) {
            String id = in.liveId(f.workloadId());
            publish(admissionTopics.finished(), id, new WorkloadFinished(id, time, f.outcome(), in.cluster().orNull()));
        } else if (step instanceof Scenario.PodsReady r) {
            String id = in.liveId(r.workloadId());
            publish(admissionTopics.podsReady(), id, new WorkloadPodsReady(id, time, in.cluster().orNull()));
        } else {
            publish(ClusterChangeRecords.of(step, in.cluster())
                    .orElseThrow(() -> new IllegalArgumentException("not a step to publish: " + step)));
        }
    }

    private void publish(ClusterChangeRecords c) {
        publish(c.topic() == ClusterChangeRecords.Topic.QUOTA ? admissionTopics.quota() : admissionTopics.topology(), c.key(), c.value());
    }

    void publish(String topic, String key, Object value) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, key, value == null ? null : EventCodec.bytes(value));
        CloudEventHeaders.write(r.headers(), "dev.taskgov.test", "urn:taskgov:test", UUID.randomUUID().toString(),
                Instant.now(), key);
        try {
            producer.send(r).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("cannot publish to " + topic, e);
        }
    }

    /**
     * Sends without waiting for the ack (bursts; {@link #flush()} waits for all), with CloudEvents headers, to
     * {@code partition} or, when null, the partition of the key (as a producer unaware of clusters would).
     */
    void publishAsync(String topic, Integer partition, String key, Object value) {
        publishAsync(topic, partition, key, value, "dev.taskgov.test");
    }

    /** Like {@link #publishAsync(String, Integer, String, Object)}, with this {@code ce_type} (the requests topic dispatches on it). */
    void publishAsync(String topic, Integer partition, String key, Object value, String type) {
        ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, partition, key, value == null ? null : EventCodec.bytes(value));
        CloudEventHeaders.write(r.headers(), type, "urn:taskgov:test", UUID.randomUUID().toString(), Instant.now(), key);
        producer.send(r);
    }

    void flush() {
        producer.flush();
    }

    /** The partition of {@code cluster}'s records on {@code topic} ({@link ClusterPartitions}). */
    int partitionOf(String topic, ClusterArn cluster) {
        return ClusterPartitions.of(cluster.value(), producer.partitionsFor(topic).size());
    }

    List<ConsumerRecord<String, byte[]>> readAll(String topic) {
        List<ConsumerRecord<String, byte[]>> out = new ArrayList<>();
        CompactedTopicReader.readAll(client, List.of(topic), Duration.ofMinutes(1), out::add);
        return out;
    }

    /**
     * Waits until both deciders have processed every record of their inputs and what they wrote can be read
     * ({@link DeciderProgress.QuietCheck}; an eviction leads to an admission, which may lead to another request).
     */
    void awaitQuiet() {
        List<String> inputs = List.of(admissionTopics.submitted(), admissionTopics.finished(), admissionTopics.preempted(),
                admissionTopics.podsReady(), admissionTopics.quota(), admissionTopics.topology(),
                preemptionTopics.preemptionRequested());
        // what they write (both prefixes name the same shared topics): admission its forwarded copies on its group
        // topics, admissions, statuses, requests; preemption evictions, statuses, forwarded requests; each its changelog
        // and dead letters
        List<String> written = List.of(admissionTopics.submitted(), admissionTopics.finished(), admissionTopics.preempted(),
                admissionTopics.podsReady(), admissionTopics.admitted(), admissionTopics.status(), admissionTopics.changelog(),
                preemptionTopics.preemptionRequested(), preemptionTopics.changelog(), admissionTopics.deadLetter());
        // both deciders' offsets: their keys do not meet (each its own group topics and changelog)
        DeciderProgress.QuietCheck quiet = progress.quietCheck(
                () -> DeciderProgress.furthest(List.of(admission.processedOffsets(), preemption.processedOffsets())), inputs, written);
        await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(40))
                .until(() -> admission.isDecider() && preemption.isDecider() && quiet.isQuiet());
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
