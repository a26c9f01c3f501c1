package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InputOffsets;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The decider's loop keeps its input offsets in its changelog, written in the transaction that consumed the input:
 * the next owner resumes where the changelog says, whatever the group holds, and on a changelog without them (written
 * before they were kept there) where the group's committed offsets say.
 */
class InputOffsetsInChangelogTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void theNextOwnerResumesWhereTheChangelogSaysEvenWithTheGroupsOffsetsSetBack() throws Exception {
        try (LiveCluster c = new LiveCluster("offsets-changelog"); Admin admin = Admin.create(c.client)) {
            Fixtures.cluster(c, 4, Map.of("team-a", 8L));
            AdmissionDecider first = c.startDecider(Clock.systemUTC());
            submit(c, 0, 5);
            c.awaitQuiet(first);
            TopicPartition home = new TopicPartition(c.topics.submitted(), c.homePartition(c.topics.submitted()));
            long end = first.processedOffsets().get(home.topic() + "-" + home.partition());
            assertThat(end).isEqualTo(5);
            assertThat(recorded(c, home)).as("the changelog's record of the partition").isEqualTo(end);
            first.close();

            // Only the changelog knows now: the group's copy says nothing was consumed.
            String group = c.deciderSettings().groupId();
            await().atMost(Duration.ofMinutes(1)).ignoreExceptions().untilAsserted(() -> admin.alterConsumerGroupOffsets(group,
                    Map.of(home, new OffsetAndMetadata(0))).all().get(30, TimeUnit.SECONDS));

            AdmissionDecider second = c.startDecider(Clock.systemUTC());
            await().atMost(Duration.ofMinutes(2)).until(second::decidesDefaultCluster);
            assertThat(second.processedOffsets()).containsEntry(home.topic() + "-" + home.partition(), end);

            submit(c, 5, 6);
            c.awaitQuiet(second);
            assertThat(admittedOnce(c)).as("each workload admitted once").hasSize(6).allSatisfy((id, n) -> assertThat(n).isOne());
            assertThat(recorded(c, home)).isEqualTo(6);
            await("the group is told too, after the commit").atMost(Duration.ofMinutes(1))
                    .until(() -> groupOffset(admin, group, home) == 6);
        }
    }

    @Test
    void aChangelogWithoutOffsetsResumesAtTheGroupsCommittedOffsets() throws Exception {
        try (LiveCluster c = new LiveCluster("offsets-upgrade"); Admin admin = Admin.create(c.client)) {
            Fixtures.cluster(c, 4, Map.of("team-a", 8L));
            AdmissionDecider first = c.startDecider(Clock.systemUTC());
            submit(c, 0, 5);
            c.awaitQuiet(first);
            TopicPartition home = new TopicPartition(c.topics.submitted(), c.homePartition(c.topics.submitted()));
            String group = c.deciderSettings().groupId();
            await().atMost(Duration.ofMinutes(1)).until(() -> groupOffset(admin, group, home) == 5);
            first.close();

            // The changelog as a version that committed the offsets to the group left it: no offsets records.
            for (ConsumerRecord<String, byte[]> r : c.readAll(c.topics.changelog())) {
                if (InputOffsets.isKey(r.key()) && r.value() != null) c.publishRaw(c.topics.changelog(), r.partition(), r.key(), null);
            }

            AdmissionDecider second = c.startDecider(Clock.systemUTC());
            await().atMost(Duration.ofMinutes(2)).until(second::decidesDefaultCluster);
            assertThat(second.processedOffsets()).containsEntry(home.topic() + "-" + home.partition(), 5L);

            submit(c, 5, 6);
            c.awaitQuiet(second);
            assertThat(admittedOnce(c)).hasSize(6).allSatisfy((id, n) -> assertThat(n).isOne());
            assertThat(recorded(c, home)).as("written again from the first transaction on").isEqualTo(6);
        }
    }

    /**
     * Submissions {@code from} to {@code to - 1}, each on the unnamed cluster's own partition: nothing is forwarded, so
     * that partition holds only them (no transaction's markers) and its offsets count them.
     */
    private static void submit(LiveCluster c, int from, int to) {
        int home = c.homePartition(c.topics.submitted());
        for (int i = from; i < to; i++) {
            c.publishRaw(c.topics.submitted(), home, "w-" + i, EventCodec.bytes(Fixtures.workload("w-" + i, "team-a", 1, T0.plusMillis(i))));
        }
    }

    /** The latest next offset the changelog records for {@code tp} (-1: none). */
    private static long recorded(LiveCluster c, TopicPartition tp) {
        String key = new InputOffsets(tp.topic(), tp.partition(), 0).key();
        long at = -1;
        for (ConsumerRecord<String, byte[]> r : c.readAll(c.topics.changelog())) {
            if (key.equals(r.key())) at = r.value() == null ? -1 : EventCodec.read(r.value(), InputOffsets.class).nextOffset();
        }
        return at;
    }

    private static Map<String, Long> admittedOnce(LiveCluster c) {
        return c.readAll(c.topics.admitted()).stream().collect(Collectors.groupingBy(ConsumerRecord::key, Collectors.counting()));
    }

    private static long groupOffset(Admin admin, String group, TopicPartition tp) throws Exception {
        OffsetAndMetadata o = admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(tp);
        return o == null ? 0 : o.offset();
    }
}
