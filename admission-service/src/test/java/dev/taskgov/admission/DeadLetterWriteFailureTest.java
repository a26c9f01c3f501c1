package dev.taskgov.admission;

import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead letter the broker refuses (here: a dead-letter topic name that no broker can create) must not count
 * as handled: the refused record's offset stays uncommitted, the failure is logged and counted, nothing is
 * counted as dead-lettered, and a decider with a writable dead-letter topic later handles the same records,
 * losing none.
 */
class DeadLetterWriteFailureTest {

    @Test
    void aRefusedDeadLetterLeavesTheOffsetUncommittedAndIsCountedAndNothingIsLost() throws Exception {
        try (LiveCluster c = new LiveCluster("dlq-refused"); Admin admin = Admin.create(c.client)) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            DeciderTopics t = c.topics;
            DeciderTopics unwritable = new DeciderTopics(t.submitted(), t.finished(), t.preempted(), t.quota(),
                    t.topology(), t.admitted(), t.status(), t.preemptionRequested(), c.id + ".dead letters!", t.changelog(), t.podsReady());
            AdmissionDecider.Settings s = c.deciderSettings();
            Counting observer = new Counting();
            AdmissionDecider refused = new AdmissionDecider(new AdmissionDecider.Settings(s.clientProps(), unwritable,
                    s.groupId(), s.transactionalIdPrefix(), s.source(), s.pollTimeout(), s.rebuildTimeout(), false),
                    Clock.systemUTC(), observer);
            c.own(refused);
            refused.start();
            await().atMost(Duration.ofMinutes(2)).until(refused::isDecider);

            // Both on the cluster's partition, the bad one first: it is the one whose offset must stay uncommitted.
            int home = c.homePartition(t.submitted());
            TopicPartition tp = new TopicPartition(t.submitted(), home);
            c.publishRaw(t.submitted(), home, "not-json", "{not json".getBytes(StandardCharsets.UTF_8));
            c.publishRaw(t.submitted(), home, "good",
                    EventCodec.bytes(Fixtures.workload("good", "team-a", 1, Instant.parse("2026-11-30T10:00:00Z"))));

            await().atMost(Duration.ofMinutes(1)).until(() -> observer.writeFailures.get() >= 2);
            assertThat(observer.deadLettered).as("nothing reached a dead-letter topic, so nothing is counted as dead-lettered")
                    .isEmpty();
            assertThat(committed(admin, s.groupId(), tp)).as("the refused record's offset is not committed").isZero();
            assertThat(c.readAll(t.status())).as("the batch was aborted: no decision is visible").isEmpty();

            refused.close();
            AdmissionDecider fixed = c.startDecider(Clock.systemUTC()); // the same group, a writable dead-letter topic
            await().atMost(Duration.ofMinutes(2)).until(() -> fixed.isDecider()
                    && fixed.reads().workload("good").map(r -> r.state() == WorkloadState.Admitted).orElse(false));
            await().atMost(Duration.ofMinutes(1)).until(() -> !c.readAll(t.deadLetter()).isEmpty());
            DeadLetter letter = EventCodec.read(c.readAll(t.deadLetter()).get(0).value(), DeadLetter.class);
            assertThat(letter.key()).isEqualTo("not-json");
            assertThat(letter.offset()).isZero();
            assertThat(letter.partition()).isEqualTo(home);
            await().atMost(Duration.ofMinutes(1)).until(() -> committed(admin, s.groupId(), tp) == 2);
        }
    }

    private static long committed(Admin admin, String group, TopicPartition tp) throws Exception {
        Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
        OffsetAndMetadata o = offsets.get(tp);
        return o == null ? 0 : o.offset();
    }

    /** Counts what the decider reports about dead letters. */
    static final class Counting implements AdmissionObserver {
        final AtomicInteger writeFailures = new AtomicInteger();
        final Map<String, DeadLetterMetrics.Reason> deadLettered = new ConcurrentHashMap<>();

        @Override
        public void deadLetterWriteFailed(String topic) {
            writeFailures.incrementAndGet();
        }

        @Override
        public void deadLettered(String topic, DeadLetterMetrics.Reason reason) {
            deadLettered.put(topic, reason);
        }

        public void admitted(dev.taskgov.core.cluster.ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        public void finished(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
        }

        public void preemptionRequested(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
        }

        public void rejected(dev.taskgov.core.cluster.ClusterArn cluster, String team, String reason) {
        }
    }
}
