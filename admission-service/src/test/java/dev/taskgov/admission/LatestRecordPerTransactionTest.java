package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InputOffsets;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.taskgov.core.model.WorkloadState.Admitted;
import static dev.taskgov.core.model.WorkloadState.Pending;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The changelog and the status topic are compacted: a workload submitted and admitted in one transaction leaves one
 * record on each (its state after the transaction), not a Pending record followed by an Admitted one. A workload
 * that waits, and is admitted in a later transaction, leaves both states: its Pending one was committed and could be
 * read. Either way its history (the changelog record's) tells every change.
 */
class LatestRecordPerTransactionTest {

    private static final Instant T0 = Instant.parse("2026-12-03T10:00:00Z");

    @Test
    void aWorkloadAdmittedInItsSubmissionsTransactionHasOneChangelogAndOneStatusRecord() {
        try (LiveCluster c = new LiveCluster("latest-per-txn")) {
            // 2 nodes of 8 accelerators, a quota of 16: 16 workloads of one pod are admitted at once, 4 wait
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            // on the cluster's partition, in this order: w-0 to w-15 are admitted, w-16 to w-19 wait
            int home = c.homePartition(c.topics.submitted());
            for (int i = 0; i < 20; i++) {
                c.publishRaw(c.topics.submitted(), home, "w-" + i, EventCodec.bytes(Fixtures.workload("w-" + i, "team-a", 1, T0.plusMillis(i))));
            }
            c.awaitQuiet(decider);
            for (int i = 0; i < 4; i++) {
                c.publish(c.topics.finished(), "w-" + i, new WorkloadFinished("w-" + i, T0.plusSeconds(5),
                        WorkloadFinished.Outcome.Succeeded), true);
            }
            c.awaitQuiet(decider);

            Map<String, List<WorkloadState>> statuses = byKey(c.readAll(c.topics.status()),
                    r -> EventCodec.read(r.value(), WorkloadStatus.class).state());
            // the workload records (not the loop's input offsets, kept on the changelog too)
            Map<String, List<WorkloadState>> changelog = byKey(c.readAll(c.topics.changelog()).stream()
                            .filter(r -> !InputOffsets.isKey(r.key())).toList(),
                    r -> EventCodec.read(r.value(), WorkloadRecord.class).state());
            for (Map<String, List<WorkloadState>> topic : List.of(statuses, changelog)) {
                assertThat(topic).hasSize(20);
                for (int i = 0; i < 4; i++) assertThat(topic.get("w-" + i)).containsExactly(Admitted, WorkloadState.Finished);
                for (int i = 4; i < 16; i++) assertThat(topic.get("w-" + i)).as("w-" + i).containsExactly(Admitted);
                // a waiting workload's message may change while later ones arrive (more Pending records): each was committed
                for (int i = 16; i < 20; i++) {
                    List<WorkloadState> states = topic.get("w-" + i);
                    assertThat(states).as("w-" + i).startsWith(Pending).endsWith(Admitted);
                    assertThat(states.subList(0, states.size() - 1)).as("w-" + i).containsOnly(Pending);
                }
            }

            // the one record of a workload admitted at once still tells that it was queued first
            WorkloadRecord admittedAtOnce = decider.reads().workload("w-5").orElseThrow();
            assertThat(admittedAtOnce.history()).extracting(WorkloadRecord.Condition::state).containsExactly(Pending, Admitted);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    /**
     * A workload whose changelog record Kafka refuses (too large for the topic) is dead-lettered with the refusal and
     * the next one is served, although the record refused is the one its admission wrote in the batch's decision
     * cycle (emitted by no input record): it replaced the submission's, and the blame stays with the submission. The
     * next one is in the same batch, its records sent after the refused one, and Kafka fails them with the same
     * error: only the first refusal is blamed. The topic's limit stays above the producers' batch size (256 KiB), so
     * their batches are as on a default topic ({@link WrittenTopicLimitTest}: below it).
     */
    @Test
    void aSubmissionWhoseLatestChangelogRecordIsRefusedIsDeadLetteredAndTheNextOneIsAdmitted() throws Exception {
        try (LiveCluster c = new LiveCluster("latest-refused")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            try (Admin admin = Admin.create(c.client)) {
                admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, c.topics.changelog()),
                        List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "300000"),
                                AlterConfigOp.OpType.SET)))).all().get(30, TimeUnit.SECONDS);
            }
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            int home = c.homePartition(c.topics.submitted());
            WorkloadSubmitted big = Fixtures.workload("big", "team-a", 1, T0)
                    .withAnnotations(Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "x".repeat(400_000)));
            c.publishRaw(c.topics.submitted(), home, "big", EventCodec.bytes(big));
            c.publishRaw(c.topics.submitted(), home, "small", EventCodec.bytes(Fixtures.workload("small", "team-a", 1, T0.plusMillis(1))));
            // the quiet check may count a batch applied but not committed: the refused one is, at first
            await().atMost(Duration.ofMinutes(2)).until(() -> !c.readAll(c.topics.admitted()).isEmpty());
            c.awaitQuiet(decider);

            assertThat(c.readAll(c.topics.admitted())).extracting(ConsumerRecord::key).containsExactly("small");
            List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                    .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
            assertThat(letters).extracting(DeadLetter::key).containsExactly("big");
            assertThat(letters.get(0).reason()).contains("its record to " + c.topics.changelog() + " (key big) was refused")
                    .contains("RecordTooLargeException");
        }
    }

    private static Map<String, List<WorkloadState>> byKey(List<ConsumerRecord<String, byte[]>> records,
                                                          java.util.function.Function<ConsumerRecord<String, byte[]>, WorkloadState> state) {
        return records.stream().filter(r -> r.value() != null)
                .collect(Collectors.groupingBy(ConsumerRecord::key, LinkedHashMap::new, Collectors.mapping(state, Collectors.toList())));
    }
}
