package dev.taskgov.preemption;

import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Grace periods per priority class of the victim: the victim is told (status PreemptionPending,
 * still Admitted) and keeps its placement until the deadline; then its eviction is published.
 * A grace survives a restart of the decider.
 */
class GracePeriodTest {

    static final Map<String, Duration> GRACES = Map.of("low", Duration.ofSeconds(10));

    TestCluster cluster;
    Fixture fixture;

    @BeforeEach
    void setUp(TestInfo info) {
        cluster = new TestCluster(info.getTestMethod().orElseThrow().getName());
        fixture = new Fixture(cluster).nodes(2, 1).config(Map.of("low", 10, "mid", 50, "high", 90), false).quota("team-a", 2, 50);
        fixture.running("low-1", "team-a", "low-priority", "n1");
        fixture.running("mid-1", "team-a", "mid-priority", "n2");
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    private List<WorkloadPreempted> preempted() {
        return cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class);
    }

    @Test
    void theVictimIsToldKeepsItsPlaceUntilTheDeadlineThenIsEvicted() {
        PreemptionDecider decider = cluster.startDecider(GRACES, Clock.systemUTC());
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 1);
        Instant asked = Instant.now();
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);

        List<WorkloadStatus> status = cluster.readAll(cluster.topics.status(), WorkloadStatus.class);
        assertThat(status).singleElement().satisfies(s -> {
            assertThat(s.workloadId()).isEqualTo("low-1");
            assertThat(s.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(s.reason()).isEqualTo("PreemptionPending");
            assertThat(s.message()).contains("high-1").contains("InTeamPriority");
        });
        assertThat(decider.processor().pendingGraces()).singleElement()
                .satisfies(g -> assertThat(g.deadline()).isAfterOrEqualTo(asked.plusSeconds(10)));
        // A second request during the grace takes nothing more and does not evict early.
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);
        assertThat(preempted()).allSatisfy(p -> assertThat(p.preemptedAt()).isAfterOrEqualTo(asked.plusSeconds(10)));

        await().atMost(Duration.ofSeconds(30)).until(() -> !preempted().isEmpty());
        assertThat(preempted()).singleElement().satisfies(p -> {
            assertThat(p.workloadId()).isEqualTo("low-1");
            assertThat(p.preemptorWorkloadId()).isEqualTo("high-1");
            assertThat(p.preemptedAt()).isAfterOrEqualTo(asked.plusSeconds(10));
        });
        assertThat(decider.processor().pendingGraces()).isEmpty();
    }

    @Test
    void aPendingGraceSurvivesARestartAndIsEvictedOnce() {
        PreemptionDecider first = cluster.startDecider(Map.of("low", Duration.ofSeconds(20)), Clock.systemUTC());
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 1);
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(first);
        assertThat(first.processor().pendingGraces()).hasSize(1);
        first.close();

        PreemptionDecider second = cluster.startDecider(Map.of("low", Duration.ofSeconds(20)), Clock.systemUTC());
        assertThat(second.processor().pendingGraces()).extracting(ChangelogRecords.PendingGrace::workloadId)
                .containsExactly("low-1");
        assertThat(preempted()).isEmpty();
        await().atMost(Duration.ofSeconds(60)).until(() -> !preempted().isEmpty());
        // Stays one: wait until the grace is gone and the view caught up, then check again.
        await().atMost(Duration.ofSeconds(30)).until(() -> second.processor().pendingGraces().isEmpty());
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(second);
        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).containsExactly("low-1");
    }

    @Test
    void aVictimThatFinishesDuringItsGraceIsNotEvicted() {
        PreemptionDecider decider = cluster.startDecider(GRACES, Clock.systemUTC());
        WorkloadSubmitted high = fixture.submit("high-1", "team-a", "high-priority", 1);
        fixture.requestPreemption(high, 90);
        cluster.awaitHandled(decider);
        fixture.finish("low-1");
        // The next request brings the view up to date: the grace ends without an eviction.
        WorkloadSubmitted other = fixture.submit("high-2", "team-a", "high-priority", 1);
        fixture.requestPreemption(other, 90);
        cluster.awaitHandled(decider);
        await().atMost(Duration.ofSeconds(30)).until(() -> decider.processor().pendingGraces().isEmpty());
        assertThat(preempted()).extracting(WorkloadPreempted::workloadId).doesNotContain("low-1");
    }
}
