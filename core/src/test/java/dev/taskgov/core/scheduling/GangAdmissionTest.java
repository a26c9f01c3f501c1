package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioFiles;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.PodSetRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Gang admission (docs/semantics.md, "Gang admission"): an admitted workload whose pods are not all ready within the
 * timeout is evicted (PodsReadyTimeout, no preemptor), backs off (Pending, reason Backoff, not a head of its queue)
 * for base x 2^(n-1) capped at the max, and after backoffLimitCount requeues ends Rejected (RequeuingLimitExceeded).
 */
class GangAdmissionTest {

    private static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @ParameterizedTest
    @EnumSource(Scheduler.Mode.class)
    void theTimeoutScenarioHoldsInBothModes(Scheduler.Mode mode) {
        Path file = ScenarioFiles.all(Path.of("")).stream().filter(f -> f.getFileName().toString().equals("gang-timeout-requeue.json"))
                .findFirst().orElseThrow();
        ScenarioResult r = Simulator.run(Scenario.read(file), file.toString(), mode);
        assertThat(r.ok()).as(r.toJson()).isTrue();
    }

    private static Scheduler scheduler(VirtualClock clock, WaitForPodsReady setting) {
        Scheduler s = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(Cluster.G5_TYPE), List.of(
                new dev.taskgov.core.topology.Node("n1", null, Cluster.G5, Map.of(), Cluster.G5_TYPE.capacity().times(2), true)));
        s.applySchedulerConfig(new SchedulerConfig(Map.of("training", 50), false));
        s.applyQuota(dev.taskgov.core.model.TeamQuota.of("a", Map.of(Cluster.G5, Resources.accelerators(2))));
        s.waitForPodsReady(setting);
        return s;
    }

    private static Workload job(String id) {
        return new Workload(id, "a", "training", 50, T0, List.of(new PodSetRequest("worker", 2, Cluster.G5, Resources.accelerators(1), null)));
    }

    /** Moves the clock to {@code at} and runs a cycle. */
    private static List<Decision> at(Scheduler s, VirtualClock clock, Instant at) {
        clock.advance(Duration.between(clock.instant(), at));
        return s.cycle();
    }

    @Test
    void backoffsDoubleUpToTheMaxAndTheLimitEndsTheWorkloadRejected() {
        VirtualClock clock = new VirtualClock(T0);
        Scheduler s = scheduler(clock, new WaitForPodsReady(Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofSeconds(100), 2));
        s.submit(job("w"));
        s.cycle();
        Instant admitted = clock.instant();
        assertThat(s.nextDeadline()).contains(admitted.plus(Duration.ofMinutes(5)));

        // 1st timeout: evicted, backs off 60 s, not a head meanwhile
        List<Decision> d = at(s, clock, admitted.plus(Duration.ofMinutes(5)));
        assertThat(d).anyMatch(x -> x instanceof Decision.Evict e && e.victim().reason() == PreemptionReason.PodsReadyTimeout);
        assertThat(s.workload("w").orElseThrow().reason()).isEqualTo("Backoff");
        assertThat(s.queue("a")).isEmpty();
        Instant backoffEnd = admitted.plus(Duration.ofMinutes(5)).plusSeconds(60);
        assertThat(s.nextDeadline()).contains(backoffEnd);

        // backoff over: admitted again, a new deadline
        at(s, clock, backoffEnd);
        assertThat(s.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);

        // 2nd timeout: backs off 120 s capped at 100 s
        Instant second = backoffEnd.plus(Duration.ofMinutes(5));
        at(s, clock, second);
        assertThat(s.nextDeadline()).contains(second.plusSeconds(100));
        at(s, clock, second.plusSeconds(100));
        assertThat(s.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);

        // 3rd timeout after 2 requeues (the limit): Rejected, nothing held
        d = at(s, clock, second.plusSeconds(100).plus(Duration.ofMinutes(5)));
        assertThat(d).anyMatch(x -> x instanceof Decision.Reject r && r.reason() == RejectReason.RequeuingLimitExceeded);
        assertThat(s.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Rejected);
        assertThat(s.ledger().usage("a").getOrDefault(Cluster.G5, Resources.ZERO).accelerators()).isZero();
        assertThat(s.nextDeadline()).isEmpty();
    }

    @Test
    void readyPodsKeepTheWorkloadRunningAndEachAdmissionMustReportAgain() {
        VirtualClock clock = new VirtualClock(T0);
        Scheduler s = scheduler(clock, WaitForPodsReady.withTimeout(Duration.ofMinutes(5)));
        s.submit(job("w"));
        s.cycle();
        assertThat(s.podsReady("w").outcome()).isEqualTo(ChangeResult.Outcome.PodsReady);
        assertThat(s.podsReady("w").outcome()).isEqualTo(ChangeResult.Outcome.Unchanged);
        assertThat(s.nextDeadline()).isEmpty();
        at(s, clock, T0.plus(Duration.ofHours(1)));
        assertThat(s.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        assertThat(s.podsReady("unknown").outcome()).isEqualTo(ChangeResult.Outcome.Unchanged);
    }

    @Test
    void finishingWhileBackingOffEndsItAndSwitchingGangAdmissionOffEndsEveryBackoff() {
        VirtualClock clock = new VirtualClock(T0);
        Scheduler s = scheduler(clock, WaitForPodsReady.withTimeout(Duration.ofMinutes(1)));
        s.submit(job("w1"));
        s.cycle();
        at(s, clock, T0.plus(Duration.ofMinutes(1)));
        assertThat(s.workload("w1").orElseThrow().reason()).isEqualTo("Backoff");
        s.finish("w1");
        s.cycle();
        assertThat(s.workload("w1").orElseThrow().state()).isEqualTo(WorkloadState.Finished);
        assertThat(s.nextDeadline()).isEmpty();

        s.submit(job("w2"));
        s.cycle();
        at(s, clock, clock.instant().plus(Duration.ofMinutes(1)));
        assertThat(s.workload("w2").orElseThrow().reason()).isEqualTo("Backoff");
        s.waitForPodsReady(null);
        s.cycle();
        assertThat(s.workload("w2").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
        assertThat(s.nextDeadline()).isEmpty();
    }

    /** What a decider taking over puts back: the same deadlines, backoffs and requeue counts as the scheduler it replaces. */
    @Test
    void aRestoredSchedulerKeepsTheBackoffTheRequeuesAndTheReadinessOfTheOne() {
        VirtualClock clock = new VirtualClock(T0);
        WaitForPodsReady setting = new WaitForPodsReady(Duration.ofMinutes(5), Duration.ofSeconds(60), Duration.ofSeconds(600), 1);
        Scheduler original = scheduler(clock, setting);
        original.submit(job("w"));
        original.cycle();
        at(original, clock, T0.plus(Duration.ofMinutes(5)));
        Scheduler.Readiness backingOff = original.readiness("w").orElseThrow();
        assertThat(backingOff).isEqualTo(new Scheduler.Readiness(false, 1, T0.plus(Duration.ofMinutes(6))));

        // taken over while it backs off: out of its queue until the same end, then admitted again
        Scheduler restored = scheduler(clock, setting);
        restored.submit(job("w"));
        restored.restoreReadiness("w", backingOff);
        assertThat(restored.cycle()).noneMatch(d -> d instanceof Decision.Admit);
        assertThat(restored.workload("w").orElseThrow().reason()).isEqualTo("Backoff");
        assertThat(restored.nextDeadline()).isEqualTo(original.nextDeadline());
        at(restored, clock, T0.plus(Duration.ofMinutes(6)));
        assertThat(restored.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);

        // its one requeue is used: the next timeout ends it, as it would have in the original
        Instant admittedAgain = clock.instant();
        at(restored, clock, admittedAgain.plus(Duration.ofMinutes(5)));
        assertThat(restored.workload("w").orElseThrow().state()).isEqualTo(WorkloadState.Rejected);
        assertThat(restored.workload("w").orElseThrow().reason()).isEqualTo("RequeuingLimitExceeded");
    }

    @Test
    void aRestoredAdmissionReportedReadyHasNoDeadlineAndOneNotReportedKeepsItsOwn() {
        VirtualClock clock = new VirtualClock(T0);
        Scheduler s = scheduler(clock, WaitForPodsReady.withTimeout(Duration.ofMinutes(5)));
        Workload ready = job("ready");
        Workload notReady = new Workload("not-ready", "a", "training", 50, T0, List.of(new PodSetRequest("worker", 1, Cluster.G5,
                Resources.accelerators(1), null)));
        s.restoreAdmitted(ready, onN1(2), Map.of(), T0);
        s.restoreReadiness("ready", new Scheduler.Readiness(true, 0, null));
        s.restoreAdmitted(notReady, onN1(1), Map.of(), T0.plusSeconds(30));
        assertThat(s.readiness("ready")).contains(new Scheduler.Readiness(true, 0, null));
        assertThat(s.nextDeadline()).contains(T0.plusSeconds(30).plus(Duration.ofMinutes(5)));
        List<Decision> d = at(s, clock, T0.plus(Duration.ofMinutes(6)));
        assertThat(d).anyMatch(x -> x instanceof Decision.Evict e && e.workloadId().equals("not-ready"));
        assertThat(s.workload("ready").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
    }

    private static dev.taskgov.core.topology.Placement onN1(int pods) {
        return new dev.taskgov.core.topology.Placement(List.of(new dev.taskgov.core.topology.PodSetPlacement("worker", Cluster.G5, null,
                new java.util.TreeMap<>(Map.of("n1", pods)))));
    }
}
