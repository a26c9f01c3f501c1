package dev.taskgov.admission;

import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.DryRunResult;
import dev.taskgov.core.scheduling.WorkloadView;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two admission-service instances behind one Kubernetes Service: the one that does not decide must answer
 * reads too, from its read replica of the decider's committed state (else about half of all reads fail), and
 * go on answering while it takes over.
 */
class ReadReplicaTest {

    @Test
    void anInstanceNotDecidingForTheClusterAnswersEveryReadFromItsReplicaAsTheDeciderWould() {
        try (LiveCluster c = new LiveCluster("replica")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider first = c.startDecider(Clock.systemUTC());
            await().atMost(Duration.ofMinutes(2)).until(first::isDecider);
            AdmissionDecider second = c.startDecider(Clock.systemUTC());
            // The two share the partitions; one of them decides for the (one, unnamed) cluster.
            c.awaitGroupStable(2);
            await().atMost(Duration.ofMinutes(2)).until(() -> first.isDecider() && second.isDecider()
                    && (first.decidesDefaultCluster() || second.decidesDefaultCluster()));
            AdmissionDecider decider = first.decidesDefaultCluster() ? first : second;
            AdmissionDecider standby = decider == first ? second : first;
            AdmissionReplica replica = new AdmissionReplica(c.client, c.topics, Duration.ofMillis(50), Clock.systemUTC());
            c.own(replica);
            replica.start();

            Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
            c.publish(c.topics.submitted(), "fits", Fixtures.workload("fits", "team-a", 12, t0), true);
            c.publish(c.topics.submitted(), "waits", Fixtures.workload("waits", "team-a", 8, t0.plusSeconds(1)), true);
            await().atMost(Duration.ofMinutes(1)).until(() ->
                    decider.reads().workload("waits").map(r -> r.state() == WorkloadState.Pending && r.reason() != null
                            && !r.reason().equals("Queued")).orElse(false));
            assertThat(standby.decidesDefaultCluster()).as("the other instance does not decide for this cluster").isFalse();

            // The standby's joining makes the group rebalance: the decider gives its partition up and takes it back,
            // rebuilding its state from the changelog meanwhile, so its records are read once it decides again.
            await().atMost(Duration.ofMinutes(1)).until(() -> decider.isDecider()
                    && decider.reads().workload("fits").isPresent() && decider.reads().workload("waits").isPresent());
            WorkloadRecord admitted = decider.reads().workload("fits").orElseThrow();
            WorkloadRecord pending = decider.reads().workload("waits").orElseThrow();
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                AdmissionReads reads = replica.reads().orElseThrow();
                assertThat(reads.workload("fits")).contains(admitted);
                assertThat(reads.workload("waits")).contains(pending);
            });
            AdmissionReads reads = replica.reads().orElseThrow();
            assertThat(reads.workloads(null, "team-a", null)).extracting(WorkloadRecord::workloadId).containsExactly("fits", "waits");
            List<WorkloadView> queue = reads.queue(dev.taskgov.core.cluster.ClusterArn.UNNAMED, "team-a");
            assertThat(queue).extracting(WorkloadView::workloadId).containsExactly("waits");
            assertThat(queue.get(0).reason()).isEqualTo(pending.reason());
            assertThat(queue.get(0).message()).isEqualTo(pending.message());
            DryRunResult probe = reads.dryRun(Fixtures.workload("probe", "team-a", 4, t0.plusSeconds(2)));
            assertThat(probe.verdict()).as("4 accelerators are free on the replica's view too")
                    .isEqualTo(decider.reads().dryRun(Fixtures.workload("probe", "team-a", 4, t0.plusSeconds(2))).verdict())
                    .isEqualTo(DryRunResult.Verdict.Admitted);

            decider.close(); // the other instance takes the cluster over; the replica goes on answering with the same state
            await().atMost(Duration.ofMinutes(2)).until(standby::decidesDefaultCluster);
            assertThat(replica.reads().orElseThrow().workload("fits")).contains(admitted);

            // The replica has answered reads already; what the new decider records after them shows in the next reads.
            c.publish(c.topics.finished(), "fits", new dev.taskgov.core.events.WorkloadFinished("fits", t0.plusSeconds(3),
                    dev.taskgov.core.events.WorkloadFinished.Outcome.Succeeded), true);
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                AdmissionReads later = replica.reads().orElseThrow();
                assertThat(later.workload("fits")).map(WorkloadRecord::state).contains(WorkloadState.Finished);
                assertThat(later.workload("waits")).map(WorkloadRecord::state).contains(WorkloadState.Admitted);
                assertThat(later.workloads(null, "team-a", WorkloadState.Admitted)).extracting(WorkloadRecord::workloadId)
                        .containsExactly("waits");
                assertThat(later.queue(dev.taskgov.core.cluster.ClusterArn.UNNAMED, "team-a")).isEmpty();
            });
        }
    }

    @Test
    void aReplicaHoldsNothingWhileTheDeciderAnswersEveryReadAndCatchesUpWhenItStops() {
        try (LiveCluster c = new LiveCluster("replica-stands-down")) {
            Fixtures.cluster(c, 2, Map.of("team-a", 16L));
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            await().atMost(Duration.ofMinutes(2)).until(decider::isDecider);
            AtomicBoolean deciderAnswers = new AtomicBoolean(false);
            AdmissionReplica replica = new AdmissionReplica(c.client, c.topics, Duration.ofMillis(50), Clock.systemUTC())
                    .standsDownWhile(deciderAnswers::get);
            c.own(replica);
            replica.start();

            Instant t0 = Instant.parse("2026-11-30T10:00:00Z");
            c.publish(c.topics.submitted(), "fits", Fixtures.workload("fits", "team-a", 12, t0), true);
            await().atMost(Duration.ofMinutes(1)).until(() -> decider.reads().workload("fits").isPresent());
            WorkloadRecord admitted = decider.reads().workload("fits").orElseThrow();
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                    assertThat(replica.reads().orElseThrow().workload("fits")).contains(admitted));

            deciderAnswers.set(true);
            await().atMost(Duration.ofMinutes(1)).until(() -> replica.reads().isEmpty());
            c.publish(c.topics.submitted(), "waits", Fixtures.workload("waits", "team-a", 8, t0.plusSeconds(1)), true);
            await().atMost(Duration.ofMinutes(1)).until(() -> decider.reads().workload("waits").isPresent());
            WorkloadRecord pending = decider.reads().workload("waits").orElseThrow();
            assertThat(replica.reads()).as("a replica standing down answers nothing, so nothing out of date").isEmpty();

            // The decider stops answering (say it lost its partition): the replica reads the topics again, and answers
            // what the decider recorded while it stood down.
            deciderAnswers.set(false);
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                AdmissionReads reads = replica.reads().orElseThrow();
                assertThat(reads.workload("fits")).contains(admitted);
                assertThat(reads.workload("waits")).contains(pending);
            });
            assertThat(replica.reads().orElseThrow().queue(dev.taskgov.core.cluster.ClusterArn.UNNAMED, "team-a"))
                    .extracting(WorkloadView::workloadId).containsExactly("waits");
        }
    }
}
