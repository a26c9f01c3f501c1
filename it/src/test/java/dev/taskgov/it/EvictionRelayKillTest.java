package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.service.support.CloudEventHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The evictions admission-service decides itself (NodeFailure, QuotaRemoved) reach {@code taskgov.workload.preempted}
 * only through preemption-service's transactional loop: with the preemption decider killed ({@code kill -9}, its
 * open transaction left open) while it publishes a burst of them, and another decider taking its partitions over,
 * every eviction is on the preempted topic exactly once (read_committed), on its cluster's partition, in the order
 * admission handed them over.
 */
class EvictionRelayKillTest {

    static final int CLUSTERS = 2;
    static final int PER_CLUSTER = 400;

    @Test
    void everyRelayedEvictionIsPublishedOnceAcrossAKill9OfThePreemptionDecider() {
        try (DeciderFleet fleet = new DeciderFleet("relay-kill")) {
            int partitions = TopicCatalog.WORKLOAD_PARTITIONS;
            fleet.declareClusters(CLUSTERS, 1, Map.of("team-a", 8L));
            fleet.start("preemption", "preemption-1");
            fleet.awaitOwners("preemption", Set.of("preemption-1"), partitions);
            String requested = fleet.preemptionTopics.preemptionRequested();
            String preempted = fleet.preemptionTopics.preempted();

            Properties props = new Properties();
            props.putAll(fleet.client);
            props.put(ProducerConfig.ACKS_CONFIG, "all");
            Map<ClusterArn, List<String>> handedOver = new TreeMap<>();
            try (KafkaProducer<String, byte[]> admission = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
                handOver(admission, fleet, requested, 0, PER_CLUSTER / 2, handedOver);
                await("the first decider publishing").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(20))
                        .until(() -> !fleet.readAll(preempted).isEmpty());
                fleet.kill9("preemption-1");
                handOver(admission, fleet, requested, PER_CLUSTER / 2, PER_CLUSTER, handedOver);
            }
            fleet.start("preemption", "preemption-2");
            fleet.awaitOwners("preemption", Set.of("preemption-2"), partitions);
            await("every eviction published").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> fleet.readAll(preempted).size() >= CLUSTERS * PER_CLUSTER);

            List<ConsumerRecord<String, byte[]>> published = fleet.readAll(preempted);
            assertThat(published).hasSize(CLUSTERS * PER_CLUSTER);
            for (Map.Entry<ClusterArn, List<String>> c : handedOver.entrySet()) {
                int home = ClusterPartitions.of(c.getKey().value(), partitions);
                List<WorkloadPreempted> ofCluster = published.stream().filter(r -> r.partition() == home)
                        .map(r -> EventCodec.read(r.value(), WorkloadPreempted.class))
                        .filter(p -> c.getKey().value().equals(p.clusterArn())).toList();
                assertThat(ofCluster).extracting(WorkloadPreempted::workloadId).as("evictions of %s, once each, in order", c.getKey())
                        .containsExactlyElementsOf(c.getValue());
                assertThat(ofCluster).allSatisfy(p -> {
                    assertThat(p.preemptorWorkloadId()).isNull();
                    assertThat(p.reason()).isEqualTo(PreemptionReason.NodeFailure);
                });
            }
            // the id admission gave each eviction is the published event's: one per eviction
            Set<String> ids = published.stream().map(r -> CloudEventHeaders.text(r.headers(), "ce_id")).collect(Collectors.toSet());
            assertThat(ids).hasSize(CLUSTERS * PER_CLUSTER);
        }
    }

    /** Evictions {@code from} to {@code to} of each cluster, on its partition, as admission-service hands them over. */
    private static void handOver(KafkaProducer<String, byte[]> producer, DeciderFleet fleet, String topic, int from, int to,
                                 Map<ClusterArn, List<String>> handedOver) {
        for (int i = from; i < to; i++) {
            for (ClusterArn cluster : fleet.clusters) {
                String id = "evicted-" + cluster.shortId() + "-" + i;
                EvictionDecided eviction = new EvictionDecided(id, "team-a", PreemptionReason.NodeFailure,
                        "node node-0 left the cluster; its pods found no room", Instant.now(), cluster.value());
                ProducerRecord<String, byte[]> r = new ProducerRecord<>(topic, ClusterPartitions.of(cluster.value(),
                        TopicCatalog.WORKLOAD_PARTITIONS), id, EventCodec.bytes(eviction));
                CloudEventHeaders.write(r.headers(), EvictionDecided.TYPE, "urn:taskgov:admission-service", id + ":2", Instant.now(), id);
                producer.send(r);
                handedOver.computeIfAbsent(cluster, c -> new ArrayList<>()).add(id);
            }
        }
        producer.flush();
    }
}
