package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.model.FinishedRetention;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.sim.VirtualClock;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Retention of ended workloads on the real broker: a finished workload is still described within its retention;
 * after it the decider forgets it (tombstones for its changelog and status records, committed with the batch); a
 * decider rebuilt from the changelog then does not have it, although its submission is still on the (not compacted)
 * submitted topic; and its id submitted again is a new workload. Time is the deciders' clock, moved by the test.
 */
class FinishedRetentionLiveTest {

    private static final Instant T0 = Instant.parse("2026-12-02T05:00:00Z");
    private static final FinishedRetention ONE_HOUR = new FinishedRetention(Duration.ofHours(1));

    @Test
    void aFinishedWorkloadIsDescribedWithinItsRetentionAndForgottenAfterItAlsoAcrossARebuild() {
        try (LiveCluster c = new LiveCluster("retention")) {
            VirtualClock clock = new VirtualClock(T0);
            Forgotten forgotten = new Forgotten();
            AdmissionDecider first = deciderOfTeamA(c, clock, forgotten);

            send(c, c.topics.submitted(), "w-done", Fixtures.workload("w-done", "team-a", 2, T0));
            c.awaitQuiet(first);
            assertThat(first.reads().workload("w-done")).get().extracting(WorkloadRecord::state).isEqualTo(WorkloadState.Admitted);
            send(c, c.topics.finished(), "w-done", new WorkloadFinished("w-done", T0, WorkloadFinished.Outcome.Succeeded));
            c.awaitQuiet(first);
            assertThat(first.reads().workload("w-done")).get().extracting(WorkloadRecord::state).isEqualTo(WorkloadState.Finished);

            // 59 minutes later (the next batch looks): still described, listed, on both topics.
            clock.advance(Duration.ofMinutes(59));
            send(c, c.topics.submitted(), "w-later", Fixtures.workload("w-later", "team-a", 1, T0));
            c.awaitQuiet(first);
            assertThat(first.reads().workload("w-done")).get().extracting(WorkloadRecord::state).isEqualTo(WorkloadState.Finished);
            assertThat(first.reads().workloads(null, "team-a", WorkloadState.Finished)).extracting(WorkloadRecord::workloadId)
                    .containsExactly("w-done");
            assertThat(latestIsTombstone(c, c.topics.changelog(), "w-done")).as("changelog record kept").isFalse();
            assertThat(latestIsTombstone(c, c.topics.status(), "w-done")).as("status record kept").isFalse();
            assertThat(forgotten.count.get()).isZero();

            // Past the hour: the next batch forgets it, and only it (the running one stays).
            clock.advance(Duration.ofMinutes(2));
            send(c, c.topics.submitted(), "w-trigger", Fixtures.workload("w-trigger", "team-a", 1, T0));
            c.awaitQuiet(first);
            assertThat(first.reads().workload("w-done")).isEmpty();
            assertThat(first.reads().workloads(null, null, null)).extracting(WorkloadRecord::workloadId)
                    .containsExactly("w-later", "w-trigger");
            assertThat(latestIsTombstone(c, c.topics.changelog(), "w-done")).as("changelog tombstone, read_committed").isTrue();
            assertThat(latestIsTombstone(c, c.topics.status(), "w-done")).as("status tombstone, read_committed").isTrue();
            assertThat(forgotten.count.get()).isEqualTo(1);
            assertThat(forgotten.last).isEqualTo("team-a Finished");

            // A decider rebuilt from the changelog does not have it, though its submission is still on the submitted topic:
            // the input offsets were committed with the tombstones, so the rebuild does not read that submission again.
            first.close();
            assertThat(c.readAll(c.topics.submitted())).extracting(ConsumerRecord::key).contains("w-done");
            AdmissionDecider rebuilt = c.startDecider(clock, forgotten, ONE_HOUR);
            c.awaitQuiet(rebuilt);
            assertThat(rebuilt.reads().workload("w-done")).isEmpty();
            assertThat(rebuilt.reads().workloads(null, null, null)).extracting(WorkloadRecord::workloadId)
                    .containsExactly("w-later", "w-trigger");

            // The id submitted again: a new workload, with a history of its own, admitted by the usual rules.
            send(c, c.topics.submitted(), "w-done", Fixtures.workload("w-done", "team-a", 1, T0.plusSeconds(7200)));
            c.awaitQuiet(rebuilt);
            WorkloadRecord again = rebuilt.reads().workload("w-done").orElseThrow();
            assertThat(again.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(again.history()).extracting(WorkloadRecord.Condition::state)
                    .containsExactly(WorkloadState.Pending, WorkloadState.Admitted);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    @Test
    void anIdleDeciderForgetsAnEndedWorkloadOnceItsRetentionElapsedWithoutAnotherRecord() {
        try (LiveCluster c = new LiveCluster("retention-idle")) {
            VirtualClock clock = new VirtualClock(T0);
            Forgotten forgotten = new Forgotten();
            AdmissionDecider decider = deciderOfTeamA(c, clock, forgotten);

            // One after the other: a poll's records of two topics come in no set order, and a finish read before its
            // submission finds no workload.
            for (Object event : List.of(Fixtures.workload("w-idle", "team-a", 2, T0),
                    new WorkloadFinished("w-idle", T0, WorkloadFinished.Outcome.Succeeded))) {
                send(c, event instanceof WorkloadFinished ? c.topics.finished() : c.topics.submitted(), "w-idle", event);
                c.awaitQuiet(decider);
            }
            assertThat(decider.reads().workload("w-idle")).get().extracting(WorkloadRecord::state).isEqualTo(WorkloadState.Finished);

            // Nothing more is sent: the decider's own clock passing the hour is enough.
            clock.advance(Duration.ofMinutes(61));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(decider.reads().workload("w-idle")).isEmpty();
                assertThat(latestIsTombstone(c, c.topics.changelog(), "w-idle")).as("changelog tombstone, read_committed").isTrue();
                assertThat(latestIsTombstone(c, c.topics.status(), "w-idle")).as("status tombstone, read_committed").isTrue();
            });
            assertThat(forgotten.count.get()).isEqualTo(1);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    @Test
    void pastTheBoundOnEndedWorkloadsTheEarliestEndedIsForgottenFirstWithinItsPeriodAlsoAcrossARebuild() {
        FinishedRetention hourButTwo = new FinishedRetention(Duration.ofHours(1), 2);
        try (LiveCluster c = new LiveCluster("retention-bound")) {
            VirtualClock clock = new VirtualClock(T0);
            Forgotten forgotten = new Forgotten();
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider decider = c.startDecider(clock, forgotten, hourButTwo);

            // Three workloads end a minute apart, well within the hour; one keeps running.
            send(c, c.topics.submitted(), "w-running", Fixtures.workload("w-running", "team-a", 1, T0));
            c.awaitQuiet(decider);
            for (String id : List.of("w-first", "w-second", "w-third")) {
                send(c, c.topics.submitted(), id, Fixtures.workload(id, "team-a", 1, clock.instant()));
                c.awaitQuiet(decider);
                send(c, c.topics.finished(), id, new WorkloadFinished(id, clock.instant(), WorkloadFinished.Outcome.Succeeded));
                c.awaitQuiet(decider);
                clock.advance(Duration.ofMinutes(1));
            }

            // Two ended are held at most: the one that ended first is gone, tombstoned; the running one stays.
            assertThat(decider.reads().workloads(null, null, null)).extracting(WorkloadRecord::workloadId)
                    .containsExactlyInAnyOrder("w-running", "w-second", "w-third");
            assertThat(latestIsTombstone(c, c.topics.changelog(), "w-first")).as("changelog tombstone, read_committed").isTrue();
            assertThat(latestIsTombstone(c, c.topics.status(), "w-first")).as("status tombstone, read_committed").isTrue();
            assertThat(latestIsTombstone(c, c.topics.changelog(), "w-second")).as("changelog record kept").isFalse();
            assertThat(forgotten.count.get()).isEqualTo(1);

            // A decider rebuilt from the changelog holds the same.
            decider.close();
            AdmissionDecider rebuilt = c.startDecider(clock, forgotten, hourButTwo);
            c.awaitQuiet(rebuilt);
            assertThat(rebuilt.reads().workloads(null, null, null)).extracting(WorkloadRecord::workloadId)
                    .containsExactlyInAnyOrder("w-running", "w-second", "w-third");
            assertThat(forgotten.count.get()).isEqualTo(1);
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    /** Two nodes and team-a's quota of 16, and a decider on the test's clock keeping ended workloads an hour. */
    private static AdmissionDecider deciderOfTeamA(LiveCluster c, VirtualClock clock, Forgotten forgotten) {
        Fixtures.cluster(c, 2, Map.of("team-a", 16L));
        return c.startDecider(clock, forgotten, ONE_HOUR);
    }

    /**
     * Sends to the unnamed cluster's partition, where its decider reads it at once: a record elsewhere is forwarded
     * there first, and {@link LiveCluster#awaitQuiet} can find the decider quiet between the forward and its processing.
     */
    private static void send(LiveCluster c, String topic, String key, Object value) {
        c.publishRaw(topic, c.homePartition(topic), key, dev.taskgov.core.events.EventCodec.bytes(value));
    }

    /** Whether the latest committed record of {@code key} on {@code topic} is a tombstone (false when there is none). */
    private static boolean latestIsTombstone(LiveCluster c, String topic, String key) {
        Map<String, List<ConsumerRecord<String, byte[]>>> byKey = new HashMap<>();
        c.readAll(topic).forEach(r -> byKey.computeIfAbsent(r.key(), k -> new ArrayList<>()).add(r));
        List<ConsumerRecord<String, byte[]>> records = byKey.getOrDefault(key, List.of());
        assertThat(records).as("records of " + key + " on " + topic).isNotEmpty();
        return records.get(records.size() - 1).value() == null;
    }

    /** Counts the workloads forgotten (the metric's observer call), the last one's team and state. */
    private static final class Forgotten implements AdmissionObserver {
        final AtomicInteger count = new AtomicInteger();
        volatile String last;

        @Override
        public void forgotten(dev.taskgov.core.cluster.ClusterArn cluster, String team, WorkloadState state) {
            count.incrementAndGet();
            last = team + " " + state;
        }

        @Override
        public void admitted(dev.taskgov.core.cluster.ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        @Override
        public void finished(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
        }

        @Override
        public void preemptionRequested(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
        }

        @Override
        public void deadLettered(String topic, dev.taskgov.service.support.DeadLetterMetrics.Reason reason) {
        }

        @Override
        public void rejected(dev.taskgov.core.cluster.ClusterArn cluster, String team, String reason) {
        }
    }
}
