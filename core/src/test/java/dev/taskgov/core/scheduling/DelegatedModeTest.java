package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Delegated mode (admission-service): a workload that fits only by preemption is nominated and a
 * {@link Decision.PreemptionNeeded} is emitted once; when the evictions arrive it is admitted first.
 */
class DelegatedModeTest {

    static final Victim B2 = new Victim("b-2", "b", PreemptionReason.ReclaimLentCapacity, "evicted by the preemption service");

    /** Decisions summarised as "Kind id[: detail]". */
    record Case(String name, Cluster cluster, List<String> decisions) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Cluster seed001() {
        return Cluster.gpus(11).delegated().team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).submit("a-2", "a", 4);
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("preemption is requested, not carried out, and the preemptor waits", seed001(), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption")),
                new Case("no second request while the first is outstanding", seed001().then(s -> { }).then(s -> { }), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption")),
                new Case("another team's workload that needs the quota the preemptor waits for is skipped; after the eviction both go, the preemptor first", seed001()
                        .submit("b-3", "b", 1).then(s -> s.evict(B2, "a-2")), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption",
                        "StayPending b-3: QuotaExceeded",
                        "Admit a-2", "Admit b-3", "StayPending b-2: Preempted")),
                new Case("another team's workload that fits beside what the preemptor waits for is admitted meanwhile",
                        Cluster.gpus(13).delegated().team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .team("c", 2, Cluster.dontLend())
                                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).submit("a-2", "a", 4)
                                .submit("c-1", "c", 2).then(s -> s.evict(B2, "a-2")), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption",
                        "Admit c-1",
                        // its message names who holds the room it lacks, c among them now
                        "StayPending a-2: WaitingForPreemption",
                        "Admit a-2", "StayPending b-2: Preempted")),
                new Case("the preemptor's own team waits behind it (one head per team, as Kueue's sticky head)", seed001()
                        .submit("a-3", "a", 1, "experiment"), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption")),
                new Case("an earlier workload of the preemptor's team that fits once the evictions arrive does not take the room they freed",
                        Cluster.gpus(11).delegated().team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).submit("a-0", "a", 5)
                                .submit("a-2", "a", 4).then(s -> s.evict(B2, "a-2")), List.of(
                        "Admit a-1", "Admit b-1", "Admit b-2 borrowing {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-0: QuotaExceeded",
                        "PreemptionNeeded a-2: suggests [b-2 ReclaimLentCapacity], lacks {ml.g5.8xlarge=3 accelerators}",
                        "StayPending a-2: WaitingForPreemption",
                        // a-0's new figures (what a-2 now holds) are read through its parked shape, not reported again
                        "Admit a-2", "StayPending b-2: Preempted"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void decisions(Case c) {
        List<String> seen = c.cluster().replay().decisions().stream().map(DelegatedModeTest::summary).toList();
        assertThat(seen).isEqualTo(c.decisions());
    }

    static String summary(Decision d) {
        if (d instanceof Decision.Admit a) {
            return "Admit " + a.workloadId() + (a.borrowed().isEmpty() ? "" : " borrowing " + a.borrowed());
        }
        if (d instanceof Decision.PreemptionNeeded n) {
            return "PreemptionNeeded " + n.workloadId() + ": suggests " + n.suggestedPlan().victims().stream()
                    .map(v -> v.workloadId() + " " + v.reason()).toList() + ", lacks " + n.lacking();
        }
        if (d instanceof Decision.StayPending p) {
            return "StayPending " + p.workloadId() + ": " + p.reason();
        }
        return d.getClass().getSimpleName() + " " + d.workloadId();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dryRuns")
    void dryRun(String name, Cluster cluster, String workloadId, String team, int pods, String expected) {
        Scheduler s = cluster.replay().scheduler();
        DryRunResult r = s.dryRun(new dev.taskgov.core.events.WorkloadSubmitted(workloadId, "hyperpod-ns-" + team, null,
                "training-priority", "PyTorchJob", null, List.of(new dev.taskgov.core.events.PodSetSpec("worker", pods,
                Cluster.G5, new dev.taskgov.core.events.ResourceAmounts(java.math.BigDecimal.ONE, null, null), null, null))));
        String seen = r.verdict() + " reason=" + r.reason() + " pods=" + (r.placement() == null ? 0
                : r.placement().podSets().get(0).podCount()) + " borrowed=" + r.borrowed() + " victims="
                + r.victims().stream().map(Victim::workloadId).toList();
        assertThat(seen).isEqualTo(expected);
        assertThat(s.workload(workloadId)).as("a dry run changes nothing").isEmpty();
    }

    @org.junit.jupiter.api.Test
    void aDryRunsMessageCountsOneVictimInTheSingular() {
        Scheduler s = Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).replay().scheduler();
        DryRunResult r = s.dryRun(new dev.taskgov.core.events.WorkloadSubmitted("a-9", "hyperpod-ns-a", null,
                "training-priority", "PyTorchJob", null, List.of(new dev.taskgov.core.events.PodSetSpec("worker", 4,
                Cluster.G5, new dev.taskgov.core.events.ResourceAmounts(java.math.BigDecimal.ONE, null, null), null, null))));
        assertThat(r.message()).startsWith("would be admitted after preempting 1 workload; ");
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> dryRuns() {
        Cluster busy = Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4);
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of("admitted now, within nominal", busy, "a-9", "a", 1,
                        "Admitted reason=null pods=1 borrowed={} victims=[]"),
                org.junit.jupiter.params.provider.Arguments.of("admitted after reclaiming lent quota", busy, "a-9", "a", 4,
                        "AdmittedAfterPreemption reason=null pods=4 borrowed={} victims=[b-2]"),
                org.junit.jupiter.params.provider.Arguments.of("pending: over the borrowing limit", busy, "b-9", "b", 3,
                        "Pending reason=BorrowLimitExceeded pods=0 borrowed={} victims=[]"),
                org.junit.jupiter.params.provider.Arguments.of("admitted now, borrowing", Cluster.gpus(11).team("a", 6, borrowLimit(100))
                        .team("b", 5, borrowLimit(100)), "b-9", "b", 7, "Admitted reason=null pods=7 borrowed={"
                        + Cluster.G5 + "=" + Resources.accelerators(2) + "} victims=[]"),
                org.junit.jupiter.params.provider.Arguments.of("rejected: unknown team", busy, "z-9", "z", 1,
                        "Rejected reason=UnknownTeam pods=0 borrowed={} victims=[]")
        ).filter(java.util.Objects::nonNull);
    }

    static {
        assert PendingReason.WaitingForPreemption != null && Map.of().isEmpty();
    }
}
