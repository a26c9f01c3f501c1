package dev.taskgov.core.scheduling;

import dev.taskgov.core.scheduling.Cluster.Outcome;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.weight;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Every run ends" (docs/semantics.md): a workload that a preemption evicted in a run may preempt in it only workloads
 * admitted before the run began, so an in-team preemption, a LessThanInitialShare preemption and a reclaim cannot
 * evict each other forever; the next input starts a new run, in which they may. And the guard behind the rule: a run
 * that evicts more than its bound stops preempting, says so once, and leaves the books consistent.
 */
class EveryRunEndsTest {

    record Case(String name, Cluster cluster, Outcome expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * Seven one-GPU nodes; t0 (3 GPUs, may borrow 100%, weight 50) and t1 (4 GPUs, may borrow 50%, weight 0: its share
     * is infinite while it borrows). t0 runs base and x; t1's hi was evicted by x (LessThanInitialShare).
     */
    private static Cluster cycleSetUp() {
        return Cluster.gpus(7).fairShare()
                .team("t0", 3, q -> borrowLimit(100).apply(weight(50).apply(q)))
                .team("t1", 4, q -> borrowLimit(50).apply(weight(0).apply(q)))
                .submit("base", "t0", 2, "inference").submit("hi", "t1", 5, "training").submit("x", "t0", 2, "experiment");
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("the set-up: x (t0 borrowing) evicts hi by fair sharing, hi cannot come back",
                        cycleSetUp(), Outcome.of(List.of("base", "x"), List.of("hi"), List.of("hi"))),
                new Case("lo reclaims from x, hi evicts lo in its team; x and lo, evicted in this run, may not evict hi, admitted in it",
                        cycleSetUp().submit("lo", "t1", 4, "experiment"),
                        Outcome.of(List.of("base", "hi"), List.of("lo", "x"), List.of("hi", "x", "lo"))),
                new Case("the next input starts a new run: x evicts hi again, lo reclaims from x, and the run ends there",
                        cycleSetUp().submit("lo", "t1", 4, "experiment").submit("too-big", "t0", 7, "experiment"),
                        Outcome.of(List.of("base", "lo"), List.of("hi", "too-big", "x"), List.of("hi", "x", "lo", "hi", "x"))),
                new Case("an evicted workload may still preempt one admitted before the run began",
                        Cluster.gpus(4).team("a", 4)
                                .submit("old-low", "a", 2, "experiment").submit("mid", "a", 2, "training")
                                .submit("top", "a", 4, "inference").finish("top").submit("top-2", "a", 2, "inference"),
                        Outcome.of(List.of("mid", "top-2"), List.of("old-low"), List.of("old-low", "mid", "old-low"))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void outcome(Case c) {
        assertThat(c.cluster().run()).isEqualTo(c.expected());
    }

    @Test
    void aRunBeyondItsBoundStopsPreemptingReportsItOnceAndResumesInTheNextRun() {
        Cluster.Replay replay = Cluster.gpus(4).team("a", 4)
                .submit("low-1", "a", 2, "experiment").submit("low-2", "a", 2, "experiment")
                .then(s -> s.boundEvictionsPerRun(1))
                .then(s -> s.submit(gpus("top", "inference", 90, 4)))
                .replay();
        Scheduler s = replay.scheduler();
        List<Decision.PreemptionsStopped> stops = replay.decisions().stream()
                .filter(Decision.PreemptionsStopped.class::isInstance).map(Decision.PreemptionsStopped.class::cast).toList();
        // top's plan evicts two workloads: carried out whole (the books stay consistent), and the run stops there
        assertThat(stops).hasSize(1);
        assertThat(stops.get(0).workloadId()).isEqualTo("top");
        assertThat(stops.get(0).evictions()).isEqualTo(2);
        assertThat(stops.get(0).lastEvictions()).containsExactly("low-2 by top", "low-1 by top");
        assertThat(s.workload("top").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        assertThat(s.ledger().usage("a").get(Cluster.G5).accelerators()).isEqualTo(4);

        s.submit(gpus("urgent", "inference", 95, 2));
        s.boundEvictionsPerRun(0);
        List<Decision> next = s.cycle();
        // a new input began a new run with the bound the rules imply: urgent preempts top
        assertThat(next).anyMatch(d -> d instanceof Decision.Preempt p && p.workloadId().equals("urgent"));
        assertThat(next).noneMatch(Decision.PreemptionsStopped.class::isInstance);
    }

    @Test
    void withinTheStoppedRunAnotherPreemptorWaitsSayingWhyUntilTheNextRun() {
        Cluster.Replay replay = Cluster.gpus(4).team("a", 4)
                .submit("low-1", "a", 1, "experiment").submit("low-2", "a", 1, "experiment")
                .submit("low-3", "a", 1, "experiment").submit("low-4", "a", 1, "experiment")
                .then(s -> {
                    s.boundEvictionsPerRun(1);
                    s.submit(gpus("top", "inference", 90, 2));
                    s.submit(gpus("next", "training", 50, 2));
                })
                .replay();
        Scheduler s = replay.scheduler();
        // one run: top's two evictions cross the bound of 1 (carried out whole); next may not preempt in this run
        assertThat(replay.decisions()).filteredOn(Decision.PreemptionsStopped.class::isInstance).hasSize(1);
        assertThat(s.workload("top").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        WorkloadView next = s.workload("next").orElseThrow();
        assertThat(next.state()).isEqualTo(WorkloadState.Pending);
        assertThat(next.message()).contains("preemption is paused until the next run");
        assertThat(s.ledger().usage("a").get(Cluster.G5).accelerators()).isEqualTo(4);

        s.finish("unknown-id"); // any input begins the next run
        s.boundEvictionsPerRun(0);
        s.cycle();
        assertThat(s.workload("next").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
    }

    private static dev.taskgov.core.model.Workload gpus(String id, String cls, int priority, int pods) {
        return new dev.taskgov.core.model.Workload(id, "a", cls, priority, java.time.Instant.EPOCH,
                List.of(new dev.taskgov.core.topology.PodSetRequest("worker", pods, Cluster.G5,
                        dev.taskgov.core.resources.Resources.accelerators(1), null)));
    }
}
