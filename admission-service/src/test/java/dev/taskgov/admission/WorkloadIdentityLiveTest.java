package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.WorkloadView;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On the real broker: a workload id belongs to the team that first submitted it (another team's submission of it
 * is a dead letter with reason WorkloadIdTaken and changes nothing), and the platform, not the client, stamps
 * {@code submittedAt}, also across a restart of the decider.
 */
class WorkloadIdentityLiveTest {

    private static final Instant CLIENT_TIME = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void anotherTeamsSubmissionOfATakenIdIsDeadLetteredAndChangesNothing() {
        try (LiveCluster c = new LiveCluster("id-taken")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 8L, "team-b", 8L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            // team-a takes an id that looks like team-b's
            c.publish(c.topics.submitted(), "team-b-train-7", Fixtures.workload("team-b-train-7", "team-a", 1, CLIENT_TIME), true);
            c.awaitQuiet(d);
            WorkloadRecord before = d.reads().workload("team-b-train-7").orElseThrow();

            c.publish(c.topics.submitted(), "team-b-train-7", Fixtures.workload("team-b-train-7", "team-b", 4, CLIENT_TIME), true);
            // the owner resubmitting its own id changes nothing, as before, and is no dead letter
            c.publish(c.topics.submitted(), "team-b-train-7", Fixtures.workload("team-b-train-7", "team-a", 2, CLIENT_TIME), true);
            c.awaitQuiet(d);

            List<DeadLetter> letters = c.readAll(c.topics.deadLetter()).stream()
                    .map(r -> EventCodec.read(r.value(), DeadLetter.class)).toList();
            assertThat(letters).hasSize(1);
            assertThat(letters.get(0).reason()).startsWith("WorkloadIdTaken: workloadId: 'team-b-train-7' is taken")
                    .doesNotContain("team-a");
            assertThat(letters.get(0).key()).isEqualTo("team-b-train-7");
            assertThat(letters.get(0).value()).contains("hyperpod-ns-team-b");

            WorkloadRecord after = d.reads().workload("team-b-train-7").orElseThrow();
            assertThat(after.team()).isEqualTo("team-a");
            assertThat(after.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(after.submittedAt()).isEqualTo(before.submittedAt());
            assertThat(after.spec().podSets().get(0).count()).isEqualTo(1);
            List<WorkloadAdmitted> admitted = c.readAll(c.topics.admitted()).stream()
                    .map(r -> EventCodec.read(r.value(), WorkloadAdmitted.class)).toList();
            assertThat(admitted).singleElement().satisfies(a -> assertThat(a.team()).isEqualTo("team-a"));
            assertThat(d.reads().workloads(null, "team-b", null)).isEmpty();
        }
    }

    @Test
    void thePlatformStampsSubmittedAtAndARestartedDeciderKeepsTheStamp() {
        try (LiveCluster c = new LiveCluster("stamped")) {
            Fixtures.cluster(c, 1, Map.of("team-a", 1L));
            AdmissionDecider d = c.startDecider(Clock.systemUTC());
            c.publish(c.topics.submitted(), "a-running", Fixtures.workload("a-running", "team-a", 1, CLIENT_TIME), true);
            c.awaitQuiet(d);
            Instant firstReceived = Instant.now();
            c.publish(c.topics.submitted(), "a-first", Fixtures.workload("a-first", "team-a", 1, CLIENT_TIME), true);
            c.awaitQuiet(d);
            // a client claiming an early time does not jump its team's queue
            c.publish(c.topics.submitted(), "a-early", Fixtures.workload("a-early", "team-a", 1,
                    Instant.parse("2001-01-01T00:00:00Z")), true);
            c.awaitQuiet(d);

            List<String> queue = d.reads().queue(ClusterArn.UNNAMED, "team-a").stream().map(WorkloadView::workloadId).toList();
            assertThat(queue).containsExactly("a-first", "a-early");
            WorkloadRecord early = d.reads().workload("a-early").orElseThrow();
            assertThat(early.submittedAt()).isAfterOrEqualTo(firstReceived.minusSeconds(1));
            assertThat(early.spec().clientSubmittedAt()).isEqualTo(Instant.parse("2001-01-01T00:00:00Z"));
            assertThat(early.spec().submittedAt()).isEqualTo(early.submittedAt());
            Instant stamped = early.submittedAt();
            Instant firstStamped = d.reads().workload("a-first").orElseThrow().submittedAt();
            assertThat(firstStamped).isBefore(stamped);

            // a decider that restarts rebuilds from its changelog: the stamped times, not new ones
            d.close();
            AdmissionDecider restarted = c.startDecider(Clock.systemUTC());
            c.awaitQuiet(restarted);
            assertThat(restarted.reads().workload("a-early").orElseThrow().submittedAt()).isEqualTo(stamped);
            assertThat(restarted.reads().workload("a-first").orElseThrow().submittedAt()).isEqualTo(firstStamped);
            assertThat(restarted.reads().queue(ClusterArn.UNNAMED, "team-a").stream().map(WorkloadView::workloadId))
                    .containsExactly("a-first", "a-early");

            c.publish(c.topics.finished(), "a-running", new WorkloadFinished("a-running", Instant.now(),
                    WorkloadFinished.Outcome.Succeeded), true);
            c.awaitQuiet(restarted);
            assertThat(restarted.reads().workload("a-first").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
            assertThat(restarted.reads().workload("a-early").orElseThrow().state()).isEqualTo(WorkloadState.Pending);
        }
    }
}
