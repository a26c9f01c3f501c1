package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static dev.taskgov.core.scheduling.ClusterChangesTest.c;
import static dev.taskgov.core.scheduling.ClusterChangesTest.decisions;
import static dev.taskgov.core.scheduling.ClusterChangesTest.states;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Scheduler#fail}: a workload that fails while admitted with retries left
 * ({@code taskgov.dev/max-retry}) gives back its quota and nodes, counts the retry, waits in its
 * queue as of its failure (Kueue's requeuing timestamp {@code Eviction}) and is admitted again by
 * the usual rules; with its retries used up, or none, the failure is final. Each case compares
 * every decision in order and every workload's final state.
 */
class RetryAfterFailureTest {

    static Stream<ClusterChangesTest.Case> cases() {
        return Stream.of(
                c("a failure with a retry left: it gives back its nodes and is admitted again at once when nothing waits",
                        Cluster.gpus(2).team("a", 2).submitRetrying("a-1", "a", 2, 1).fail("a-1"),
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}")),
                c("the retry queues behind what waited while it ran (same priority, submitted earlier than the failure)",
                        Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 1).submit("a-2", "a", 2).fail("a-1"),
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-2 {n01=1, n02=1}"),
                        List.of("a-1 Pending RetryAfterFailure", "a-2 Admitted {n01=1, n02=1}")),
                c("the retrying workload runs again once the room is free",
                        Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 1).submit("a-2", "a", 2).fail("a-1")
                                .finish("a-2"),
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-2 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}", "a-2 Finished")),
                c("retries used up: the next failure is final and frees the room for the next workload",
                        Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 2).fail("a-1").fail("a-1")
                                .submit("a-2", "a", 2).fail("a-1"),
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}",
                                "admit a-2 {n01=1, n02=1}"),
                        List.of("a-1 Finished", "a-2 Admitted {n01=1, n02=1}")),
                c("no max-retry: a failure is final, as a success is",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2).fail("a-1"),
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Finished")),
                c("a failure of a workload that never ran is final: it leaves its queue",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-0", "a", 2).submitRetrying("a-1", "a", 2, 3).fail("a-1"),
                        List.of("admit a-0 {n01=1, n02=1}"),
                        List.of("a-0 Admitted {n01=1, n02=1}", "a-1 Finished")),
                c("priority still comes first: the retry goes before a lower-priority workload that waited while it ran",
                        Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 1).submit("a-2", "a", 2, "experiment")
                                .fail("a-1"),
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}", "a-2 Pending QuotaExceeded")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(ClusterChangesTest.Case c) {
        Cluster.Replay r = c.cluster().replay();
        assertThat(decisions(r.decisions())).as("decisions").isEqualTo(c.decisions());
        assertThat(states(r.scheduler())).as("final states").isEqualTo(c.states());
    }

    @Test
    void theStatusSaysWhichRetryAndCountsIt() {
        Scheduler s = Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 2).submit("a-2", "a", 2).fail("a-1")
                .replay().scheduler();
        WorkloadView v = s.workload("a-1").orElseThrow();
        assertThat(v.reason()).isEqualTo(PendingReason.RetryAfterFailure.name());
        assertThat(v.retries()).isEqualTo(1);
        assertThat(v.submittedAt()).as("queued as of its failure").hasToString("2026-11-30T10:00:03Z");
        assertThat(v.message()).startsWith("failed; retry 1 of 2, queued again as of 2026-11-30T10:00:03Z; still waiting: ");
    }

    @Test
    void theFinalFailureSaysTheRetriesWereUsed() {
        Scheduler s = Cluster.gpus(2).team("a", 2).submitRetrying("a-1", "a", 2, 1).fail("a-1").replay().scheduler();
        ChangeResult last = s.fail("a-1");
        assertThat(last.outcome()).isEqualTo(ChangeResult.Outcome.Released);
        assertThat(s.workload("a-1").orElseThrow().message()).isEqualTo("failed with no retries left (1 of 1 used); its resources are free");
        assertThat(s.workload("a-1").orElseThrow().retries()).isEqualTo(1);
    }

    /** A decider that takes over puts the used retries back: the count goes on, it does not start again. */
    @Test
    void aRestoredSchedulerCountsOnFromTheRecordedRetries() {
        Scheduler original = Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 2).fail("a-1")
                .submitRetrying("a-2", "a", 2, 1).replay().scheduler();
        WorkloadView admitted = original.workload("a-1").orElseThrow();
        assertThat(admitted.state()).isEqualTo(WorkloadState.Admitted);

        Scheduler restored = Cluster.gpus(2).team("a", 2, dontLend()).replay().scheduler();
        var a1 = new dev.taskgov.core.model.Workload("a-1", "a", "training", 50, admitted.submittedAt(),
                List.of(new dev.taskgov.core.topology.PodSetRequest("worker", 2, Cluster.G5,
                        dev.taskgov.core.resources.Resources.accelerators(1), null)), 2);
        restored.restoreAdmitted(a1, admitted.placement(), admitted.borrowed(), admitted.admittedAt());
        restored.restoreRetries("a-1", admitted.retries());
        assertThat(restored.fail("a-1").outcome()).as("retry 2 of 2").isEqualTo(ChangeResult.Outcome.Retrying);
        restored.cycle();
        assertThat(restored.workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        assertThat(restored.fail("a-1").outcome()).as("no retries left").isEqualTo(ChangeResult.Outcome.Released);
        assertThat(restored.workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Finished);
    }

    @Test
    void aRestoredPendingRetrySaysSoAgain() {
        Scheduler restored = Cluster.gpus(2).team("a", 2, dontLend()).submit("a-0", "a", 2).replay().scheduler();
        var a1 = new dev.taskgov.core.model.Workload("a-1", "a", "training", 50, java.time.Instant.parse("2026-11-30T10:00:09Z"),
                List.of(new dev.taskgov.core.topology.PodSetRequest("worker", 2, Cluster.G5,
                        dev.taskgov.core.resources.Resources.accelerators(1), null)), 3);
        restored.submit(a1);
        restored.restoreRetries("a-1", 2);
        restored.cycle();
        WorkloadView v = restored.workload("a-1").orElseThrow();
        assertThat(v.reason()).isEqualTo(PendingReason.RetryAfterFailure.name());
        assertThat(v.retries()).isEqualTo(2);
        assertThat(v.message()).startsWith("failed; retry 2 of 3, queued again as of 2026-11-30T10:00:09Z; still waiting: ");
    }
}
