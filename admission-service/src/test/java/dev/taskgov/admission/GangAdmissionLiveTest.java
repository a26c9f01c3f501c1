package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPodsReady;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.sim.VirtualClock;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Gang admission on the real broker (docs/semantics.md, "Gang admission"): the decider's own clock passing a readiness
 * deadline evicts the workload (PodsReadyTimeout, handed to preemption-service like every eviction without a
 * preemptor) and it backs off, with no record arriving; a readiness report over Kafka keeps a workload running; a
 * decider that takes over from the changelog keeps the backoff and the readiness; bad reports go to the dead letter
 * with the reason. Time is the deciders' clock, moved by the test.
 */
class GangAdmissionLiveTest {

    private static final Instant T0 = Instant.parse("2026-12-03T08:00:00Z");
    private static final WaitForPodsReady FIVE_MINUTES = WaitForPodsReady.withTimeout(Duration.ofMinutes(5));

    @Test
    void aWorkloadNotReadyInTimeIsEvictedAndBacksOffWhileOneReportedReadyKeepsRunningAlsoAcrossATakeover() {
        try (LiveCluster c = new LiveCluster("gang")) {
            VirtualClock clock = new VirtualClock(T0);
            Fixtures.cluster(c, 1, Map.of("team-a", 8L));
            Deadlines deadlines = new Deadlines();
            AdmissionDecider first = c.startDecider(clock, deadlines, cluster -> FIVE_MINUTES);

            send(c, c.topics.submitted(), "w1", Fixtures.workload("w1", "team-a", 8, T0));
            c.awaitQuiet(first);
            send(c, c.topics.submitted(), "w2", Fixtures.workload("w2", "team-a", 8, T0));
            c.awaitQuiet(first);
            assertThat(state(first, "w1")).isEqualTo(WorkloadState.Admitted);
            assertThat(state(first, "w2")).isEqualTo(WorkloadState.Pending);
            assertThat(first.reads().nextDeadline(ClusterArn.UNNAMED)).contains(T0.plus(Duration.ofMinutes(5)));

            // Nothing is sent: the decider's clock passing w1's deadline is enough.
            clock.advance(Duration.ofMinutes(5));
            deadlines.awaitReached(T0.plus(Duration.ofMinutes(5)));
            c.awaitQuiet(first);
            WorkloadRecord w1 = first.reads().workload("w1").orElseThrow();
            assertThat(w1.state()).isEqualTo(WorkloadState.Pending);
            assertThat(w1.reason()).isEqualTo("Backoff");
            assertThat(w1.backoffUntil()).isEqualTo(T0.plus(Duration.ofMinutes(6)));
            assertThat(w1.readinessRequeues()).isEqualTo(1);
            assertThat(state(first, "w2")).isEqualTo(WorkloadState.Admitted);
            // handed to preemption-service, the preempted topic's only writer, in the decision's transaction
            assertThat(c.readAll(c.topics.preemptionRequested())).filteredOn(r -> "w1".equals(r.key()))
                    .singleElement().satisfies(r -> assertThat(new String(r.value(), StandardCharsets.UTF_8)).contains("PodsReadyTimeout"));

            // w2 reports every pod ready: its deadline no longer applies.
            send(c, c.topics.podsReady(), "w2", new WorkloadPodsReady("w2", T0.plus(Duration.ofMinutes(6))));
            c.awaitQuiet(first);
            WorkloadRecord w2 = first.reads().workload("w2").orElseThrow();
            assertThat(w2.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(w2.reason()).isEqualTo(AdmissionProcessor.PODS_READY);
            assertThat(w2.podsReady()).isTrue();

            // A decider taking over from the changelog: the same backoff (w1's end is the next deadline), w2 ready.
            first.close();
            AdmissionDecider second = c.startDecider(clock, deadlines, cluster -> FIVE_MINUTES);
            c.awaitQuiet(second);
            assertThat(second.reads().nextDeadline(ClusterArn.UNNAMED)).contains(T0.plus(Duration.ofMinutes(6)));
            assertThat(second.reads().workload("w1").orElseThrow().reason()).isEqualTo("Backoff");

            // Long after: w1's backoff is over and it waits in its queue again; w2, ready, still runs.
            clock.advance(Duration.ofMinutes(20));
            deadlines.awaitReached(T0.plus(Duration.ofMinutes(25)));
            c.awaitQuiet(second);
            assertThat(state(second, "w2")).isEqualTo(WorkloadState.Admitted);
            assertThat(second.reads().workload("w1").orElseThrow().reason()).isEqualTo("Preempted");
            assertThat(second.reads().nextDeadline(ClusterArn.UNNAMED)).isEmpty();

            // w2 ends: w1 is admitted again, with a deadline of its own and its one requeue counted.
            send(c, c.topics.finished(), "w2", new WorkloadFinished("w2", clock.instant(), WorkloadFinished.Outcome.Succeeded));
            c.awaitQuiet(second);
            WorkloadRecord again = second.reads().workload("w1").orElseThrow();
            assertThat(again.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(again.readinessRequeues()).isEqualTo(1);
            assertThat(second.reads().nextDeadline(ClusterArn.UNNAMED)).contains(clock.instant().plus(Duration.ofMinutes(5)));
            assertThat(c.readAll(c.topics.deadLetter())).isEmpty();
        }
    }

    @Test
    void badReadinessReportsGoToTheDeadLetterWithTheReasonAndATeamTopicCountsOnlyForItsTeam() throws Exception {
        try (LiveCluster c = new LiveCluster("gang-bad"); Admin admin = Admin.create(c.client)) {
            VirtualClock clock = new VirtualClock(T0);
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            String teamB = KafkaAccess.podsReadyTopic(c.topics.podsReady(), "team-b");
            admin.createTopics(List.of(new NewTopic(teamB, TopicCatalog.WORKLOAD_PARTITIONS, (short) 1))).all().get(60, TimeUnit.SECONDS);
            AdmissionDecider d = c.startDecider(clock, new Deadlines(), cluster -> FIVE_MINUTES);
            send(c, c.topics.submitted(), "a-job", Fixtures.workload("a-job", "team-a", 2, T0));
            send(c, c.topics.submitted(), "b-job", Fixtures.workload("b-job", "team-b", 2, T0));
            c.awaitQuiet(d);

            c.publishRaw(c.topics.podsReady(), c.homePartition(c.topics.podsReady()), "x", "{not json".getBytes(StandardCharsets.UTF_8));
            send(c, c.topics.podsReady(), "Bad_Id", new WorkloadPodsReady("Bad_Id", T0));
            // team-b's own topic names team-a's workload: refused, and a-job keeps its deadline
            send(c, teamB, "a-job", new WorkloadPodsReady("a-job", T0));
            send(c, teamB, "b-job", new WorkloadPodsReady("b-job", T0));
            c.awaitQuiet(d);

            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                        .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
                assertThat(letters).extracting(DeadLetter::reason).hasSize(3).satisfiesExactlyInAnyOrder(
                        r -> assertThat(r).contains("unreadable WorkloadPodsReady"),
                        r -> assertThat(r).startsWith("workloadId:").contains("Bad_Id"),
                        r -> assertThat(r).contains("team team-b has no workload 'a-job'"));
            });
            assertThat(d.reads().workload("a-job").orElseThrow().podsReady()).isFalse();
            assertThat(d.reads().workload("b-job").orElseThrow().podsReady()).isTrue();
        }
    }

    private static WorkloadState state(AdmissionDecider d, String id) {
        return d.reads().workload(id).map(WorkloadRecord::state).orElse(null);
    }

    /** Sends to the unnamed cluster's partition, where its decider reads it at once (as FinishedRetentionLiveTest). */
    private static void send(LiveCluster c, String topic, String key, Object value) {
        c.publishRaw(topic, c.homePartition(topic), key, EventCodec.bytes(value));
    }

    /** The latest time at which the decider's gang admission timers were acted on and committed. */
    static final class Deadlines implements AdmissionObserver {
        private volatile Instant reached = Instant.MIN;

        @Override
        public void deadlinesReached(ClusterArn cluster, Instant now) {
            if (now.isAfter(reached)) reached = now;
        }

        /** Waits until the timers due by {@code at} were acted on. */
        void awaitReached(Instant at) {
            await().atMost(Duration.ofSeconds(30)).until(() -> !reached.isBefore(at));
        }

        @Override
        public void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        @Override
        public void finished(ClusterArn cluster, String team) {
        }

        @Override
        public void preemptionRequested(ClusterArn cluster, String team) {
        }

        @Override
        public void deadLettered(String topic, dev.taskgov.service.support.DeadLetterMetrics.Reason reason) {
        }

        @Override
        public void rejected(ClusterArn cluster, String team, String reason) {
        }
    }
}
