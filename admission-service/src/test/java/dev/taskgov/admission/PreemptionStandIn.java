package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.ClusterSnapshot;
import dev.taskgov.core.preemption.PlanResult;
import dev.taskgov.core.preemption.PreemptionPlanner;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.service.support.QuotaRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * TEST ONLY: stands in for preemption-service until it exists. For each request on
 * {@code taskgov.preemption.requested} it rebuilds a view of the cluster from the topics (quota,
 * topology, submissions, admissions and the latest statuses), plans with the core's
 * {@link PreemptionPlanner}, and publishes one {@code taskgov.workload.preempted} per victim, all
 * in one transaction. An eviction admission decided itself ({@link EvictionDecided}, on the same
 * topic) it publishes as it is, as preemption-service does.
 */
final class PreemptionStandIn implements AutoCloseable, Runnable {

    private final LiveCluster cluster;
    private final KafkaConsumer<String, byte[]> consumer;
    private final KafkaProducer<String, byte[]> producer;
    private final Map<String, Long> processed = new ConcurrentHashMap<>();
    final List<WorkloadPreempted> published = new CopyOnWriteArrayList<>();
    private final Thread thread;
    private volatile boolean running = true;

    PreemptionStandIn(LiveCluster cluster) {
        this.cluster = cluster;
        consumer = new KafkaConsumer<>(cluster.consumerProps(), new StringDeserializer(), new ByteArrayDeserializer());
        // Every partition: a cluster's requests are on its partition (ClusterPartitions), not necessarily 0.
        List<TopicPartition> parts = new java.util.ArrayList<>();
        org.awaitility.Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> {
            consumer.partitionsFor(cluster.topics.preemptionRequested())
                    .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
            return !parts.isEmpty(); // the topic's metadata may lag its creation
        });
        consumer.assign(parts);
        consumer.seekToBeginning(parts);
        Properties pp = new Properties();
        pp.putAll(cluster.client);
        pp.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "standin-" + cluster.id);
        producer = new KafkaProducer<>(pp, new StringSerializer(), new ByteArraySerializer());
        producer.initTransactions();
        thread = new Thread(this, "preemption-stand-in");
        thread.setDaemon(true);
        thread.start();
    }

    Map<String, Long> processedOffsets() {
        return Map.copyOf(processed);
    }

    @Override
    public void run() {
        try {
            while (running) {
                for (ConsumerRecord<String, byte[]> r : consumer.poll(Duration.ofMillis(50))) {
                    // the requests topic carries two types (preemption-service dispatches on ce_type the same way)
                    if (EvictionDecided.TYPE.equals(CloudEventHeaders.text(r.headers(), CloudEvents.TYPE))) {
                        relay(EventCodec.read(r.value(), EvictionDecided.class));
                    } else {
                        handle(EventCodec.read(r.value(), PreemptionRequested.class));
                    }
                }
                for (TopicPartition tp : consumer.assignment()) {
                    processed.put(tp.topic() + "-" + tp.partition(), consumer.position(tp));
                }
            }
        } catch (WakeupException e) {
            // closing
        }
    }

    private void handle(PreemptionRequested request) {
        View view = view();
        WorkloadValidation.Result r = WorkloadValidation.validate(request.workload(), view.context(), Instant.now());
        if (!(r instanceof WorkloadValidation.Valid valid)) return;
        Workload preemptor = valid.workload();
        if (view.running.stream().anyMatch(w -> w.id().equals(preemptor.id()))) return; // already admitted: stale
        PlanResult plan = PreemptionPlanner.plan(
                ClusterSnapshot.of(view.config, view.quotas, view.nodes, view.running), preemptor);
        if (!(plan instanceof PlanResult.PreemptionPlan p)) return;
        producer.beginTransaction();
        // On the cluster's partition, all in one transaction, as preemption-service emits them: admission then sees
        // the victims of one plan together.
        int partition = cluster.homePartition(cluster.topics.preempted());
        for (Victim v : p.victims()) {
            WorkloadPreempted event = new WorkloadPreempted(v.workloadId(), v.team(), p.preemptorId(), v.reason(),
                    v.message(), Instant.now());
            producer.send(new ProducerRecord<>(cluster.topics.preempted(), partition, v.workloadId(), EventCodec.bytes(event)));
            published.add(event);
        }
        producer.commitTransaction();
    }

    /** An eviction admission decided itself (NodeFailure, QuotaRemoved): published on the preempted topic as it is. */
    private void relay(EvictionDecided eviction) {
        producer.beginTransaction();
        producer.send(new ProducerRecord<>(cluster.topics.preempted(), cluster.homePartition(cluster.topics.preempted()),
                eviction.workloadId(), EventCodec.bytes(eviction.toEvent())));
        published.add(eviction.toEvent());
        producer.commitTransaction();
    }

    /** The cluster as the topics show it now. */
    private View view() {
        DeciderTopics t = cluster.topics;
        SchedulerConfig config = SchedulerConfig.DEFAULT;
        Map<String, JsonNode> rawQuotas = new TreeMap<>();
        Map<String, NodeRecord> nodeRecords = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(t.quota())) {
            if (QuotaRecords.SCHEDULER_CONFIG_KEY.equals(r.key())) {
                config = SchedulerConfig.fromRequest(tree(r.value()));
            } else if (r.value() == null) {
                rawQuotas.remove(r.key());
            } else {
                rawQuotas.put(r.key(), tree(r.value()));
            }
        }
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(t.topology())) {
            if (r.value() == null) nodeRecords.remove(r.key());
            else nodeRecords.put(r.key(), EventCodec.read(r.value(), NodeRecord.class));
        }
        Map<String, InstanceType> types = new TreeMap<>();
        nodeRecords.values().forEach(n -> types.merge(n.instanceType(),
                new InstanceType(n.instanceType(), n.allocatable().toResources()),
                (a, b) -> new InstanceType(a.name(), a.capacity().max(b.capacity()))));
        List<Node> nodes = nodeRecords.values().stream().map(n -> n.toNode(types)).toList();
        List<TeamQuota> quotas = new ArrayList<>();
        rawQuotas.values().forEach(q -> quotas.add(ComputeQuotas.fromRequest(q, types)));

        Map<String, WorkloadSubmitted> submitted = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(t.submitted())) {
            try {
                WorkloadSubmitted s = EventCodec.read(r.value(), WorkloadSubmitted.class);
                if (s != null && s.workloadId() != null) submitted.putIfAbsent(s.workloadId(), s);
            } catch (RuntimeException e) {
                // a malformed submission: admission dead-letters it; nothing to plan with
            }
        }
        Map<String, WorkloadStatus> status = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(t.status())) {
            status.put(r.key(), EventCodec.read(r.value(), WorkloadStatus.class));
        }
        Map<String, WorkloadAdmitted> lastAdmission = new LinkedHashMap<>();
        Map<String, Long> order = new HashMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(t.admitted())) {
            WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
            lastAdmission.put(a.workloadId(), a);
            order.put(a.workloadId(), r.offset());
        }
        View view = new View(config, quotas, nodes, types, new ArrayList<>());
        for (WorkloadAdmitted a : lastAdmission.values()) {
            WorkloadStatus s = status.get(a.workloadId());
            WorkloadSubmitted spec = submitted.get(a.workloadId());
            if (s == null || s.state() != WorkloadState.Admitted || spec == null) continue;
            try {
                config.resolveClass(spec.priorityClass());
            } catch (dev.taskgov.core.model.ValidationException e) {
                // its class was removed from the scheduler config since it was admitted: it counts as the lowest (no class)
                spec = new WorkloadSubmitted(spec.workloadId(), spec.namespace(), spec.queueName(), null, spec.jobKind(),
                        spec.submittedAt(), spec.podSets());
            }
            if (WorkloadValidation.validate(spec, view.context(), Instant.now()) instanceof WorkloadValidation.Valid v) {
                view.running.add(new RunningWorkload(v.workload(), placement(a), order.get(a.workloadId())));
            }
        }
        return view;
    }

    private static Placement placement(WorkloadAdmitted a) {
        List<PodSetPlacement> out = new ArrayList<>();
        for (WorkloadAdmitted.AdmittedPodSet ps : a.podSets()) {
            Map<String, Integer> perNode = new TreeMap<>();
            ps.nodes().forEach(n -> perNode.put(n.name(), n.count()));
            out.add(new PodSetPlacement(ps.name(), ps.instanceType(),
                    ps.domain() == null ? null : new PodSetPlacement.Domain(ps.domain().level(), ps.domain().value()),
                    new TreeMap<>(perNode)));
        }
        return new Placement(out);
    }

    private static JsonNode tree(byte[] value) {
        return EventCodec.tree(value);
    }

    private record View(SchedulerConfig config, List<TeamQuota> quotas, List<Node> nodes,
                        Map<String, InstanceType> types, List<RunningWorkload> running) {
        WorkloadValidation.Context context() {
            return new WorkloadValidation.Context(types, team -> quotas.stream().anyMatch(q -> q.team().equals(team)),
                    config, nodes);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        consumer.wakeup();
        thread.join(10_000);
        consumer.close(Duration.ofSeconds(5));
        producer.close(Duration.ofSeconds(5));
    }
}
