package dev.taskgov.preemption;

import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.PreemptionReason;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A record whose output Kafka refuses when the transaction commits (here an eviction too large for the preempted
 * topic) goes to the dead-letter topic with the refusal as its reason, and the partition goes on: the records after
 * it are served. Without blame the batch was aborted and retried for ever, and the partition stalled.
 */
class RefusedOutputTest {

    private static final Instant EVICTED_AT = Instant.parse("2026-11-30T11:00:00Z");

    @Test
    void aRecordWhoseOutputTheBrokerRefusesIsDeadLetteredWithTheRefusalAndTheNextOnesAreServed() throws Exception {
        try (TestCluster c = new TestCluster("refused-output")) {
            Fixture f = new Fixture(c).nodes(4, 1).config(Map.of("low", 10, "high", 90), false).quota("team-a", 4, 50);
            for (int i = 1; i <= 4; i++) f.running("low-" + i, "team-a", "low-priority", "n" + i);
            // above the producers' batch size (256 KiB): their batches stay as on a default topic (WrittenTopicLimitTest: below it)
            limitRecordSize(c, c.topics.preempted(), 300_000);
            PreemptionDecider decider = c.startDecider();

            relay(c, new EvictionDecided("low-1", "team-a", PreemptionReason.NodeFailure, "x".repeat(400_000), EVICTED_AT, null), "low-1:1");
            relay(c, new EvictionDecided("low-2", "team-a", PreemptionReason.NodeFailure, "node n2 left the cluster", EVICTED_AT, null),
                    "low-2:1");

            await().atMost(Duration.ofMinutes(2)).until(() -> !c.readAll(c.topics.preempted()).isEmpty());
            c.awaitHandled(decider);
            assertThat(c.readAll(c.topics.preempted(), WorkloadPreempted.class)).extracting(WorkloadPreempted::workloadId)
                    .containsExactly("low-2");
            List<DeadLetter> letters = c.readAll(c.topics.deadLetter(), DeadLetter.class);
            assertThat(letters).extracting(DeadLetter::key).containsExactly("low-1");
            assertThat(letters.get(0).reason()).contains("its record to " + c.topics.preempted() + " (key low-1) was refused")
                    .contains("RecordTooLargeException");
        }
    }

    private static void relay(TestCluster c, EvictionDecided eviction, String ceId) {
        c.publishRaw(c.topics.preemptionRequested(), eviction.workloadId(), EventCodec.bytes(eviction), EvictionDecided.TYPE, ceId);
    }

    private static void limitRecordSize(TestCluster c, String topic, int bytes) throws Exception {
        try (Admin admin = Admin.create(c.client)) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                    new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, Integer.toString(bytes)), AlterConfigOp.OpType.SET))))
                    .all().get(30, TimeUnit.SECONDS);
        }
    }
}
