package dev.taskgov.admission;

import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.admission.config.AdmissionServiceConfig;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.DeciderMembershipConfig;
import dev.taskgov.service.support.DeciderTurnsConfig;
import dev.taskgov.service.support.FollowerFetch;
import dev.taskgov.client.support.ProducerPartitions;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WaitForPodsReady;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Owns this instance's decider and read replica (started at startup, stopped at shutdown) and the plain
 * producer that HTTP submissions go through. Reads are served from the deciding states when this instance
 * decides for every partition, else from the replica's ({@link AdmissionReplica}), so every ready instance answers
 * them.
 */
@ApplicationScoped
public class AdmissionRuntime {

    @Inject
    AdmissionServiceConfig config;

    @Inject
    MeterRegistry registry;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    /** Set at startup; the read replica's thread asks it whether the decider answers every read. */
    private volatile AdmissionDecider decider;
    private AdmissionMetrics metrics;
    private AdmissionReplica replica;
    private KafkaProducer<String, byte[]> submissions;
    private DeciderTopics topics;

    void onStart(@Observes StartupEvent event) {
        AdmissionServiceConfig.Admission a = config.admission();
        topics = DeciderTopics.of(config.topics(), a.changelogTopic());
        Properties client = clientProps();
        Properties producerProps = new Properties();
        producerProps.putAll(client);
        producerProps.put(ProducerConfig.ACKS_CONFIG, "all");
        producerProps.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        submissions = new KafkaProducer<>(producerProps, new StringSerializer(), new ByteArraySerializer());
        WaitForPodsReadyByCluster gang = waitForPodsReady(a.waitForPodsReady());
        replica = new AdmissionReplica(FollowerFetch.batched(client, a.replicaFetchWait(), "taskgov.admission.replica-fetch-wait"),
                topics, a.pollTimeout(), Clock.systemUTC()).waitForPodsReady(gang)
                .standsDownWhile(this::readsFromDecider);
        replica.start();
        if (!a.enabled()) return;
        AdmissionDecider.Settings settings = new AdmissionDecider.Settings(client, topics, a.groupId(),
                a.transactionalIdPrefix(), a.source(), a.pollTimeout(), a.rebuildTimeout(), a.createTopics(),
                DeciderMembershipConfig.membership(a), DeciderTurnsConfig.turns(a, "taskgov.admission"), config.topics().audit(),
                a.statusRefresh(), gang).withStatusFiguresPerSecond(a.statusFiguresPerSecond());
        AdmissionDecider[] self = new AdmissionDecider[1];
        AdmissionMetrics metrics = new AdmissionMetrics(registry, () -> self[0] != null && self[0].isDecider(),
                () -> self[0] == null ? 0L : self[0].lag(),
                java.util.List.of(topics.submitted(), topics.finished(), topics.preempted(), topics.podsReady(), topics.quota(),
                        topics.topology()),
                a.metersRefresh());
        this.metrics = metrics;
        decider = new AdmissionDecider(settings, Clock.systemUTC(), metrics,
                finishedRetention(a.finishedRetention(), a.finishedRetentionMax()));
        metrics.followProcessors(decider::allReads);
        self[0] = decider;
        decider.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (decider != null) decider.close();
        if (metrics != null) metrics.close();
        if (replica != null) replica.close();
        if (submissions != null) submissions.close();
    }

    /**
     * Gang admission per cluster as configured: the common setting, with a cluster's own overrides (keyed by its id).
     * Every setting is checked at startup: one that {@link WaitForPodsReady} refuses stops it naming the property.
     */
    static WaitForPodsReadyByCluster waitForPodsReady(AdmissionServiceConfig.WaitForPodsReadyConfig c) {
        String prefix = "taskgov.admission.wait-for-pods-ready.";
        WaitForPodsReady common = setting(prefix, c.enabled(), c.timeout(), c.backoffBaseSeconds(), c.backoffMaxSeconds(),
                c.backoffLimitCount());
        java.util.Map<String, WaitForPodsReady> byCluster = new java.util.TreeMap<>();
        c.clusters().forEach((id, o) -> byCluster.put(id, setting(prefix + "clusters." + id + ".", o.enabled().orElse(c.enabled()),
                o.timeout().orElse(c.timeout()), o.backoffBaseSeconds().orElse(c.backoffBaseSeconds()),
                o.backoffMaxSeconds().orElse(c.backoffMaxSeconds()),
                o.backoffLimitCount().isPresent() ? o.backoffLimitCount() : c.backoffLimitCount())));
        return cluster -> byCluster.containsKey(cluster.shortId()) ? byCluster.get(cluster.shortId()) : common;
    }

    private static WaitForPodsReady setting(String prefix, boolean enabled, java.time.Duration timeout, long baseSeconds,
                                            long maxSeconds, java.util.OptionalInt limit) {
        WaitForPodsReady setting;
        try {
            setting = new WaitForPodsReady(timeout, java.time.Duration.ofSeconds(baseSeconds), java.time.Duration.ofSeconds(maxSeconds),
                    limit.isPresent() ? limit.getAsInt() : null);
        } catch (dev.taskgov.core.model.ValidationException e) {
            // each refusal names its property: backoffBaseSeconds is ...backoff-base-seconds
            throw new IllegalArgumentException(String.join("; ", e.violations().stream()
                    .map(v -> prefix + v.field().replaceAll("([A-Z])", "-$1").toLowerCase(java.util.Locale.ROOT) + ": " + v.rule())
                    .toList()), e);
        }
        return enabled ? setting : null;
    }

    /**
     * The configured retention. {@link dev.taskgov.core.model.FinishedRetention} refuses a negative period or bound,
     * and its refusal stops the startup naming the property: the period is given alone first, so that a refusal of
     * the pair is the bound's.
     */
    static dev.taskgov.core.model.FinishedRetention finishedRetention(java.time.Duration period, int maxEnded) {
        dev.taskgov.core.model.FinishedRetention unbounded;
        try {
            unbounded = new dev.taskgov.core.model.FinishedRetention(period);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("taskgov.admission.finished-retention: " + e.getMessage(), e);
        }
        try {
            return new dev.taskgov.core.model.FinishedRetention(unbounded.period(), maxEnded);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("taskgov.admission.finished-retention-max: " + e.getMessage(), e);
        }
    }

    private Properties clientProps() {
        return KafkaClientSecurity.client(bootstrapServers, "admission-service");
    }

    /**
     * The deciding state of the unnamed cluster (a deployment whose records name no cluster) when this instance owns
     * its partition; empty when another instance does (or while this one rebuilds it).
     */
    public java.util.Optional<AdmissionReads> decider() {
        return decider == null ? java.util.Optional.empty() : java.util.Optional.ofNullable(decider.reads());
    }

    /**
     * What reads are served from: the deciding states when this instance decides for every partition of the inputs
     * ({@link #deciderReadsOfEveryCluster}), else the read replica (every cluster's committed changelog) once it has
     * caught up; empty while neither can answer (then the instance is not ready). So a read about a cluster that
     * another instance decides for is answered here too, trailing its decider by the open batch and one poll.
     */
    public java.util.Optional<WorkloadReads> reads() {
        java.util.Optional<WorkloadReads> own = deciderReadsOfEveryCluster();
        if (own.isPresent()) return own;
        return replica == null ? java.util.Optional.empty() : replica.reads().map(WorkloadReads.class::cast);
    }

    /** Whether reads are answered from this instance's deciding states (it decides for every partition). */
    public boolean readsFromDecider() {
        return deciderReadsOfEveryCluster().isPresent();
    }

    /**
     * The deciding states while they answer every read: this instance owns every partition of the inputs and has
     * rebuilt the state of each. The read replica stands down meanwhile.
     */
    private java.util.Optional<WorkloadReads> deciderReadsOfEveryCluster() {
        AdmissionDecider d = decider;
        if (d == null) return java.util.Optional.empty();
        java.util.List<AdmissionReads> owned = d.allReads();
        if (owned.isEmpty() || owned.size() != d.inputPartitions()) return java.util.Optional.empty();
        return java.util.Optional.of(PartitionedReads.of(owned));
    }

    public AdmissionDecider deciderInstance() {
        return decider;
    }

    /**
     * The partition of the cluster a record names, or else of the one this deployment would choose for it
     * ({@link dev.taskgov.core.cluster.WorkloadCluster}), so that two submissions acknowledged one after the other
     * reach their cluster's owner in that order (a record sent by its key could be overtaken while its owner
     * forwards it, and the platform stamps a workload's place in the queue when the owner reads it). Null, by the
     * key, only while no read side knows the governed clusters yet.
     */
    private Integer partitionOf(String topic, dev.taskgov.core.cluster.InCluster record) {
        Integer named = ProducerPartitions.ofNamed(submissions, topic, record);
        if (named != null || record.clusterArn() != null) return named;
        return reads().map(r -> r.clusterOf(record.clusterArn()))
                .filter(dev.taskgov.core.cluster.WorkloadCluster.Chosen.class::isInstance)
                .map(chosen -> dev.taskgov.core.events.ClusterPartitions.of(
                        ((dev.taskgov.core.cluster.WorkloadCluster.Chosen) chosen).cluster().value(),
                        submissions.partitionsFor(topic).size()))
                .orElse(null);
    }

    /** Publishes a submission (key = workload id) with CloudEvents headers; waits for the broker's ack. */
    public void publishSubmission(dev.taskgov.core.events.WorkloadSubmitted submission)
            throws ExecutionException, InterruptedException, TimeoutException {
        Integer partition = partitionOf(topics.submitted(), submission);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.submitted(), partition, submission.workloadId(),
                EventCodec.bytes(submission));
        CloudEventHeaders.write(record.headers(), WorkloadSubmitted.TYPE, config.admission().source(),
                "http:" + submission.workloadId() + ":" + java.util.UUID.randomUUID(), java.time.Instant.now(),
                submission.workloadId());
        submissions.send(record).get(30, TimeUnit.SECONDS);
    }

    /**
     * Publishes a finish that a caller allowed to finish this workload asked for over HTTP (key = workload id), to
     * its cluster's partition; waits for the broker's ack.
     */
    public void publishFinish(dev.taskgov.core.events.WorkloadFinished finish)
            throws ExecutionException, InterruptedException, TimeoutException {
        Integer partition = partitionOf(topics.finished(), finish);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.finished(), partition, finish.workloadId(),
                EventCodec.bytes(finish));
        CloudEventHeaders.write(record.headers(), dev.taskgov.core.events.WorkloadFinished.TYPE, config.admission().source(),
                "http-finish:" + finish.workloadId() + ":" + java.util.UUID.randomUUID(), java.time.Instant.now(),
                finish.workloadId());
        submissions.send(record).get(30, TimeUnit.SECONDS);
    }

    /**
     * Publishes a readiness report that a caller allowed to report this workload asked for over HTTP (key = workload
     * id), to its cluster's partition of the shared readiness topic; waits for the broker's ack.
     */
    public void publishPodsReady(dev.taskgov.core.events.WorkloadPodsReady ready)
            throws ExecutionException, InterruptedException, TimeoutException {
        Integer partition = ProducerPartitions.ofNamed(submissions, topics.podsReady(), ready);
        ProducerRecord<String, byte[]> record = new ProducerRecord<>(topics.podsReady(), partition, ready.workloadId(),
                EventCodec.bytes(ready));
        CloudEventHeaders.write(record.headers(), dev.taskgov.core.events.WorkloadPodsReady.TYPE, config.admission().source(),
                "http-pods-ready:" + ready.workloadId() + ":" + java.util.UUID.randomUUID(), java.time.Instant.now(),
                ready.workloadId());
        submissions.send(record).get(30, TimeUnit.SECONDS);
    }
}
