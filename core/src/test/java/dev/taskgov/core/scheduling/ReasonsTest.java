package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.preemption.Victim;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static dev.taskgov.core.scheduling.Cluster.lend;
import static dev.taskgov.core.scheduling.Cluster.weight;
import static org.assertj.core.api.Assertions.assertThat;

/** Every pending workload says why, with numbers; every victim says why it was chosen. */
class ReasonsTest {

    record Status(String state, String reason, String message) {
    }

    record PendingCase(String name, Cluster cluster, String workloadId, Status expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<PendingCase> pending() {
        return Stream.of(
                new PendingCase("BorrowLimitExceeded with the team's free quota, borrowing room and cohort idle",
                        Cluster.gpus(11).team("a", 6).team("b", 5).submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4),
                        "b-2", new Status("Pending", "BorrowLimitExceeded",
                        "needs 4 accelerators of ml.g5.8xlarge; b has 1 of its quota free and may borrow 2 more; the cohort has 5 idle")),
                new PendingCase("QuotaExceeded when the cohort lends too little (DontLend keeps its quota)",
                        Cluster.gpus(10).team("a", 4, dontLend()).team("b", 6, borrowLimit(100)).submit("b-1", "b", 8),
                        "b-1", new Status("Pending", "QuotaExceeded",
                        "needs 8 accelerators of ml.g5.8xlarge; b has 6 of its quota free and may borrow 6 more; the cohort has 6 idle")),
                new PendingCase("QuotaExceeded names who holds the room and what of it is borrowed",
                        Cluster.gpus(6).team("a", 2).team("b", 2, borrowLimit(100)).team("c", 2, borrowLimit(100))
                                .submit("b-1", "b", 4).submit("c-1", "c", 2).submit("c-2", "c", 1),
                        "c-2", new Status("Pending", "QuotaExceeded",
                        "needs 1 accelerator of ml.g5.8xlarge; c has 0 of its quota free and may borrow 2 more; the cohort has 0 idle; "
                        + "in use: b 4 (2 borrowed), c 2 (within its nominal)")),
                new PendingCase("Inadmissible for a Lend team asking more than its nominal (it may not borrow)",
                        Cluster.gpus(10).team("a", 6, lend()).team("b", 4).submit("a-1", "a", 7),
                        "a-1", new Status("Pending", "Inadmissible",
                        "can never be admitted as things stand: asks for 7 accelerators of ml.g5.8xlarge; team a may hold at most "
                        + "6 nominal + 0 borrowing limit = 6, and the cluster's ready ml.g5.8xlarge nodes offer 10; it stays "
                        + "pending until the quota or the cluster grows")),
                new PendingCase("QuotaExceeded for a Lend team whose own running work leaves too little of its nominal",
                        Cluster.gpus(10).team("a", 6, lend()).team("b", 4).submit("a-1", "a", 4).submit("a-2", "a", 4),
                        "a-2", new Status("Pending", "QuotaExceeded",
                        "needs 4 accelerators of ml.g5.8xlarge; a has 2 of its quota free and may borrow 0 more; the cohort has 6 idle")),
                new PendingCase("TopologyPlacementFailed names whose work holds the nodes",
                        Cluster.nodes(12, 1).team("a", 6).team("b", 6).submit("a-1", "a", 3).submit("b-1", "b", 3)
                                .submit("a-2", "a", 3).submit("b-2", "b", 2, "training", dev.taskgov.core.topology.TopologyRequest.required(
                                        dev.taskgov.core.topology.TopologyLevels.LAYER_3)),
                        "b-2", new Status("Pending", "TopologyPlacementFailed",
                        "pod set worker: allows to fit only 1 out of 2 pods; in use: a 6 (within its nominal), b 3 (within its nominal)")),
                new PendingCase("NoQuota while the team's quota is disabled",
                        Cluster.gpus(2).team("a", 2, q -> q.withActive(false)).submit("a-1", "a", 1),
                        "a-1", new Status("Pending", "NoQuota", "the compute quota of team a is disabled")),
                new PendingCase("Preempted keeps its reason and says by whom and why",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "inference"),
                        "a-1", new Status("Pending", "Preempted", "preempted by a-2 (InTeamPriority): a-2 (priority 90) of a needs "
                        + "2 accelerators of ml.g5.8xlarge; a-1 has the lower priority 10; what it can do: resubmit with priority "
                        + "class inference (weight 90, not below a-2's) to be protected from it, or ask for its team's quota to set "
                        + "preemptTeamTasks Never (no in-team preemption); still waiting: needs 2 accelerators of "
                        + "ml.g5.8xlarge; a has 0 of its quota free and may borrow 0 more; the cohort has 0 idle; in use: a 2 "
                        + "(within its nominal)"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pending")
    void pendingStatus(PendingCase c) {
        WorkloadView v = c.cluster().replay().scheduler().workload(c.workloadId()).orElseThrow();
        assertThat(new Status(v.state().name(), v.reason(), v.message())).isEqualTo(c.expected());
    }

    record VictimCase(String name, Cluster cluster, List<Victim> expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<VictimCase> victims() {
        return Stream.of(
                new VictimCase("reclaim names the lent quota, the need and the borrower's usage",
                        Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).submit("a-2", "a", 4),
                        List.of(new Victim("b-2", "b", PreemptionReason.ReclaimLentCapacity, "a reclaims its lent quota for a-2 "
                                + "(needs 4 accelerators of ml.g5.8xlarge within its nominal 6 accelerators, 192 vcpu, 768 GiB memory "
                                + "of ml.g5.8xlarge); b uses 8 accelerators of ml.g5.8xlarge against its nominal 5 accelerators, "
                                + "160 vcpu, 640 GiB memory of ml.g5.8xlarge; b-2 ran on quota b borrowed, and only borrowed "
                                + "quota is reclaimed: what it can do is run within b's nominal quota (resubmit once b's other work "
                                + "leaves room in it) or ask for a larger nominal quota for b"))),
                new VictimCase("in-team priority names both priorities",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "inference"),
                        List.of(new Victim("a-1", "a", PreemptionReason.InTeamPriority,
                                "a-2 (priority 90) of a needs 2 accelerators of ml.g5.8xlarge; a-1 has the lower priority 10; "
                                + "what it can do: resubmit with priority class inference (weight 90, not below a-2's) to be "
                                + "protected from it, or ask for its team's quota to set preemptTeamTasks Never (no in-team "
                                + "preemption)"))),
                new VictimCase("in-team priority names the lowest class not below the preemptor's: its own when none weighs more",
                        Cluster.gpus(2).team("a", 2, dontLend()).priorityClasses(java.util.Map.of("training", 50, "experiment", 10))
                                .submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "training"),
                        List.of(new Victim("a-1", "a", PreemptionReason.InTeamPriority,
                                "a-2 (priority 50) of a needs 2 accelerators of ml.g5.8xlarge; a-1 has the lower priority 10; "
                                + "what it can do: resubmit with priority class training (weight 50, not below a-2's) to be "
                                + "protected from it, or ask for its team's quota to set preemptTeamTasks Never (no in-team "
                                + "preemption)"))),
                new VictimCase("fair sharing names both shares",
                        Cluster.gpus(8).fairShare().team("lender", 4, lend())
                                .team("x", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .team("y", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .submit("x-1", "x", 6).submit("y-1", "y", 2).submit("y-2", "y", 1),
                        List.of(new Victim("x-1", "x", PreemptionReason.FairSharing, "y's weighted share with y-2 would be "
                                + "0.0013, below x's 0.005 (x borrows; y-2 needs 1 accelerator of ml.g5.8xlarge); x-1 ran on "
                                + "capacity x borrowed, which fair sharing moves to the team with the lower weighted share: what it "
                                + "can do is run within x's nominal quota, which fair sharing does not preempt, or ask for a "
                                + "fair-share weight for x above its 100")))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("victims")
    void victimReasons(VictimCase c) {
        List<Victim> seen = c.cluster().replay().decisions().stream()
                .filter(d -> d instanceof Decision.Preempt).flatMap(d -> ((Decision.Preempt) d).plan().victims().stream()).toList();
        assertThat(seen).isEqualTo(c.expected());
    }
}
