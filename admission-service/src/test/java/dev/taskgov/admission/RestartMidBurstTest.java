package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.model.WorkloadState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A burst of 1,000 submissions while the decider is replaced twice: once stopped mid-burst (a
 * standby takes over through the consumer group), once fenced mid-transaction by a producer with
 * the same transactional id (as a restarted instance would). Every output topic, read with
 * read_committed, must show each workload exactly once, no workload admitted twice, and no node
 * over its allocatable.
 */
class RestartMidBurstTest {

    private static final int BURST = 1000;
    private static final int NODES = 75; // 600 accelerators: 600 workloads of 1 pod fit, 400 wait

    @Test
    void aTakeoverMidBurstLosesNothingAndAdmitsNothingTwice() {
        try (LiveCluster c = new LiveCluster("restart")) {
            Fixtures.cluster(c, NODES, Map.of("team-a", 300L, "team-b", 300L));
            AdmissionDecider first = c.startDecider(Clock.systemUTC());
            AdmissionDecider standby = c.startDecider(Clock.systemUTC());
            // The two share the partitions; the one deciding for the (one) cluster is stopped mid-burst.
            await().atMost(Duration.ofMinutes(2)).until(() -> first.decidesDefaultCluster() || standby.decidesDefaultCluster());
            AdmissionDecider active = first.decidesDefaultCluster() ? first : standby;
            AdmissionDecider waiting = active == first ? standby : first;

            Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
            for (int i = 0; i < BURST; i++) {
                String team = i % 2 == 0 ? "team-a" : "team-b";
                c.publishAsync(c.topics.submitted(), "w-" + i, Fixtures.workload("w-" + i, team, 1, t0.plusMillis(i)));
                if (i == 300) {
                    c.flush();
                    await().atMost(Duration.ofMinutes(1)).until(() -> processed(active, c) > 0);
                    active.close(); // stopped mid-burst: the standby takes over and rebuilds
                }
                if (i == 700) {
                    c.flush();
                    await().atMost(Duration.ofMinutes(2)).until(waiting::decidesDefaultCluster);
                    fence(c); // a "restarted" instance with the same transactional ids: the decider's open work aborts
                }
            }
            c.flush();
            AdmissionDecider replacement = c.startDecider(Clock.systemUTC());
            c.awaitGroupStable(2); // else the caught-up decider may be found quiet just before the rebalance revokes it
            AdmissionDecider last = c.awaitQuiet(List.of(waiting, replacement));

            Map<String, Long> admissions = c.readAll(c.topics.admitted()).stream()
                    .collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
            assertThat(admissions.values()).as("no workload admitted twice").allMatch(n -> n == 1);
            assertThat(admissions).hasSize(600);

            Map<String, WorkloadStatus> status = latest(c.readAll(c.topics.status()));
            assertThat(status).as("every submission has a status").hasSize(BURST);
            Map<WorkloadState, Long> states = status.values().stream()
                    .collect(Collectors.groupingBy(WorkloadStatus::state, Collectors.counting()));
            assertThat(states).isEqualTo(Map.of(WorkloadState.Admitted, 600L, WorkloadState.Pending, 400L));
            assertThat(admissions.keySet()).isEqualTo(status.entrySet().stream()
                    .filter(e -> e.getValue().state() == WorkloadState.Admitted).map(Map.Entry::getKey)
                    .collect(Collectors.toSet()));

            Map<String, Integer> podsPerNode = new HashMap<>();
            for (ConsumerRecord<String, byte[]> r : c.readAll(c.topics.admitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                a.podSets().forEach(ps -> ps.nodes().forEach(n -> podsPerNode.merge(n.name(), n.count(), Integer::sum)));
            }
            assertThat(podsPerNode.values()).as("no node over its 8 accelerators").allMatch(n -> n <= 8);

            // The group may still move the default cluster's partition between the two after they were found quiet:
            // ask whichever decides it now (the state is the changelog's either way).
            AdmissionReads owner = await().atMost(Duration.ofMinutes(2)).until(
                    () -> java.util.stream.Stream.of(last, waiting, replacement).distinct().map(AdmissionDecider::reads)
                            .filter(java.util.Objects::nonNull).findFirst().orElse(null), java.util.Objects::nonNull);
            assertThat(owner.workloads(null, null, WorkloadState.Admitted)).hasSize(600);
            assertThat(owner.workloads(null, null, WorkloadState.Pending)).hasSize(400);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    private static long processed(AdmissionDecider d, LiveCluster c) {
        return d.processedOffsets().entrySet().stream().filter(e -> e.getKey().startsWith(c.topics.submitted() + "-"))
                .mapToLong(Map.Entry::getValue).sum();
    }

    /** What a restarted instance does first: initTransactions with the same ids (one per partition) fences the deciders. */
    private static void fence(LiveCluster c) {
        for (int n = 0; n < TopicCatalog.WORKLOAD_PARTITIONS; n++) {
            Properties p = new Properties();
            p.putAll(c.client);
            p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, c.deciderSettings().transactionalIdPrefix() + n);
            try (KafkaProducer<String, byte[]> zombieKiller = new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
                zombieKiller.initTransactions();
            }
        }
    }

    private static Map<String, WorkloadStatus> latest(List<ConsumerRecord<String, byte[]>> records) {
        Map<String, WorkloadStatus> out = new HashMap<>();
        records.forEach(r -> out.put(r.key(), EventCodec.read(r.value(), WorkloadStatus.class)));
        return out;
    }
}
