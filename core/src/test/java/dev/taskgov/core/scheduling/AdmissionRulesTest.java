package dev.taskgov.core.scheduling;

import dev.taskgov.core.scheduling.Cluster.Outcome;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static dev.taskgov.core.scheduling.Cluster.lend;
import static dev.taskgov.core.scheduling.Cluster.never;
import static dev.taskgov.core.scheduling.Cluster.weight;
import static org.assertj.core.api.Assertions.assertThat;

/** Quota, borrowing, ordering and preemption rules, one named case each: the whole outcome is compared. */
class AdmissionRulesTest {

    record Case(String name, Cluster cluster, Outcome expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name, Cluster cluster, List<String> admitted, List<String> pending, List<String> preempted) {
        return new Case(name, cluster, Outcome.of(admitted, pending, preempted));
    }

    static Stream<Case> cases() {
        return Stream.of(
                c("borrows idle quota of another team within a 100% limit (seed 001)",
                        Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4),
                        List.of("a-1", "b-1", "b-2"), List.of(), List.of()),
                c("default BorrowLimit 50% of 5 is floor(2.5) = 2",
                        Cluster.gpus(11).team("a", 6).team("b", 5)
                                .submit("a-1", "a", 2).submit("b-1", "b", 4).submit("b-2", "b", 4).submit("b-3", "b", 2),
                        List.of("a-1", "b-1", "b-3"), List.of("b-2"), List.of()),
                c("BorrowLimit 50% of 3 rounds down to 1",
                        Cluster.gpus(10).team("a", 7).team("b", 3)
                                .submit("b-1", "b", 3).submit("b-2", "b", 2).submit("b-3", "b", 1),
                        List.of("b-1", "b-3"), List.of("b-2"), List.of()),
                c("BorrowLimit 0 borrows nothing",
                        Cluster.gpus(10).team("a", 6).team("b", 4, borrowLimit(0)).submit("b-1", "b", 5).submit("b-2", "b", 4),
                        List.of("b-2"), List.of("b-1"), List.of()),
                c("BorrowLimit 10000 lets a team borrow 100 times its quota, as far as others lend",
                        Cluster.gpus(10).team("a", 9).team("b", 1, borrowLimit(10000)).submit("b-1", "b", 10),
                        List.of("b-1"), List.of(), List.of()),
                c("Lend lends idle quota but borrows nothing",
                        Cluster.gpus(10).team("a", 6, lend()).team("b", 4).submit("a-1", "a", 7).submit("b-1", "b", 6),
                        List.of("b-1"), List.of("a-1"), List.of()),
                c("DontLend lends nothing and borrows nothing",
                        Cluster.gpus(10).team("a", 6, dontLend()).team("b", 4, borrowLimit(200))
                                .submit("b-1", "b", 6).submit("a-1", "a", 7),
                        List.of(), List.of("a-1", "b-1"), List.of()),
                c("DontLend quota stays reserved although its nodes are idle",
                        Cluster.gpus(10).team("a", 4, dontLend()).team("b", 6, borrowLimit(100))
                                .submit("b-1", "b", 8).submit("b-2", "b", 6),
                        List.of("b-2"), List.of("b-1"), List.of()),
                c("reclaim of lent quota preempts the borrower's newest workload whatever its priority",
                        Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .submit("a-1", "a", 2).submit("b-1", "b", 4, "inference").submit("b-2", "b", 4, "inference")
                                .submit("a-2", "a", 4, "experiment"),
                        List.of("a-1", "a-2", "b-1"), List.of("b-2"), List.of("b-2")),
                c("no reclaim when the preemptor would go above its nominal",
                        Cluster.gpus(11).team("a", 6, borrowLimit(100)).team("b", 5, borrowLimit(100))
                                .submit("b-1", "b", 4).submit("b-2", "b", 4).submit("a-1", "a", 7),
                        List.of("b-1", "b-2"), List.of("a-1"), List.of()),
                c("minimal victims: a taken victim that is not needed is restored",
                        Cluster.gpus(12).team("a", 6, borrowLimit(100)).team("b", 6, borrowLimit(100))
                                .submit("b-1", "b", 4).submit("b-2", "b", 4).submit("b-3", "b", 1).submit("a-1", "a", 6),
                        List.of("a-1", "b-1", "b-3"), List.of("b-2"), List.of("b-2")),
                c("reclaim takes other teams' borrowed workloads before the team's own lower-priority ones",
                        Cluster.gpus(8).team("a", 4).team("b", 4, borrowLimit(100))
                                .submit("a-1", "a", 2, "experiment").submit("b-1", "b", 2).submit("b-2", "b", 4)
                                .submit("a-2", "a", 2, "inference"),
                        List.of("a-1", "a-2", "b-1"), List.of("b-2"), List.of("b-2")),
                c("no useless preemption: a request above quota evicts nothing",
                        Cluster.gpus(6).team("a", 6, dontLend()).submit("a-1", "a", 2, "experiment").submit("a-2", "a", 7, "inference"),
                        List.of("a-1"), List.of("a-2"), List.of()),
                c("nothing is evicted when all allowed victims together do not make room",
                        Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 2, "inference")
                                .submit("a-2", "a", 1, "experiment").submit("a-3", "a", 3, "training"),
                        List.of("a-1", "a-2"), List.of("a-3"), List.of()),
                c("in-team priority evicts the lowest priority first",
                        Cluster.gpus(6).team("a", 6, dontLend()).submit("exp", "a", 2, "experiment").submit("train", "a", 2, "training")
                                .submit("train-2", "a", 2, "training").submit("serve", "a", 2, "inference"),
                        List.of("serve", "train", "train-2"), List.of("exp"), List.of("exp")),
                c("PreemptTeamTasks Never keeps the team's own tasks running",
                        Cluster.gpus(4).team("a", 4, q -> never().apply(dontLend().apply(q)))
                                .submit("exp", "a", 4, "experiment").submit("serve", "a", 2, "inference"),
                        List.of("exp"), List.of("serve"), List.of()),
                c("equal priority does not preempt (strictly lower only)",
                        Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4).submit("a-2", "a", 2),
                        List.of("a-1"), List.of("a-2"), List.of()),
                c("no priority class means the lowest class's weight: it preempts nobody",
                        Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4, "experiment").submit("a-2", "a", 2, null),
                        List.of("a-1"), List.of("a-2"), List.of()),
                c("without priority classes every workload has priority 0",
                        Cluster.gpus(4).noPriorityClasses().team("a", 4, dontLend()).submit("a-1", "a", 4, null).submit("a-2", "a", 1, null),
                        List.of("a-1"), List.of("a-2"), List.of()),
                c("the -priority label suffix names the class",
                        Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4, "experiment-priority")
                                .submit("a-2", "a", 2, "inference-priority"),
                        List.of("a-2"), List.of("a-1"), List.of("a-1")),
                c("best-effort FIFO: a head that cannot be admitted does not block the work behind it",
                        Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 6).submit("a-2", "a", 2),
                        List.of("a-2"), List.of("a-1"), List.of()),
                c("FairShare Disabled: idle capacity goes first-come-first-served",
                        Cluster.gpus(5).team("lender", 3, lend()).team("x", 1, borrowLimit(400)).team("y", 1, borrowLimit(400))
                                .submit("lender-1", "lender", 3).submit("x-0", "x", 1).submit("y-0", "y", 1)
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1).submit("y-1", "y", 1).submit("y-2", "y", 1)
                                .finish("lender-1"),
                        List.of("x-0", "x-1", "x-2", "x-3", "y-0"), List.of("y-1", "y-2"), List.of()),
                c("FairShare Enabled: weights 100 and 50 split 6 idle GPUs 4 to 2",
                        Cluster.gpus(10).fairShare().team("lender", 6, q -> lend().apply(weight(10).apply(q)))
                                .team("x", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .team("y", 2, q -> borrowLimit(300).apply(weight(50).apply(q)))
                                .submit("lender-1", "lender", 6).submit("x-0", "x", 2).submit("y-0", "y", 2)
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1).submit("x-4", "x", 1).submit("x-5", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1)
                                .finish("lender-1"),
                        List.of("x-0", "x-1", "x-2", "x-3", "x-4", "y-0", "y-1", "y-2"), List.of("x-5", "y-3"), List.of()),
                c("FairShare Enabled: weights 75 and 100 tie exactly at 3/750 = 4/1000, earlier submission wins",
                        Cluster.gpus(10).fairShare().team("lender", 6, lend())
                                .team("x", 2, q -> borrowLimit(300).apply(weight(75).apply(q)))
                                .team("y", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .submit("lender-1", "lender", 6).submit("x-0", "x", 2).submit("y-0", "y", 2)
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1).submit("x-4", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1).submit("y-4", "y", 1)
                                .finish("lender-1"),
                        List.of("x-0", "x-1", "x-2", "x-3", "y-0", "y-1", "y-2", "y-3"), List.of("x-4", "y-4"), List.of()),
                c("FairShare Enabled: weight 0 is served last for idle capacity",
                        Cluster.gpus(6).fairShare().team("lender", 4, lend())
                                .team("x", 1, q -> borrowLimit(400).apply(weight(0).apply(q)))
                                .team("y", 1, q -> borrowLimit(400).apply(weight(75).apply(q)))
                                .submit("lender-1", "lender", 4).submit("x-0", "x", 1).submit("y-0", "y", 1)
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1)
                                .finish("lender-1"),
                        List.of("x-0", "x-1", "y-0", "y-1", "y-2", "y-3"), List.of("x-2", "x-3"), List.of()),
                c("fair-sharing preemption moves borrowed GPUs to the team with the lower share",
                        Cluster.gpus(8).fairShare().team("lender", 4, lend())
                                .team("x", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .team("y", 2, q -> borrowLimit(300).apply(weight(100).apply(q)))
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1)
                                .submit("x-4", "x", 1).submit("x-5", "x", 1).submit("x-6", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1).submit("y-4", "y", 1).submit("y-5", "y", 1),
                        List.of("x-1", "x-2", "x-3", "x-4", "y-1", "y-2", "y-3", "y-4"), List.of("x-5", "x-6", "y-5"), List.of("x-6", "x-5")),
                c("FairShare Disabled: no fair-sharing preemption",
                        Cluster.gpus(8).team("lender", 4, lend())
                                .team("x", 2, borrowLimit(300)).team("y", 2, borrowLimit(300))
                                .submit("x-1", "x", 1).submit("x-2", "x", 1).submit("x-3", "x", 1)
                                .submit("x-4", "x", 1).submit("x-5", "x", 1).submit("x-6", "x", 1)
                                .submit("y-1", "y", 1).submit("y-2", "y", 1).submit("y-3", "y", 1),
                        List.of("x-1", "x-2", "x-3", "x-4", "x-5", "x-6", "y-1", "y-2"), List.of("y-3"), List.of()),
                c("finishing a pending workload removes it from its queue",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2).submit("a-2", "a", 1).finish("a-2").finish("a-1"),
                        List.of(), List.of(), List.of()),
                c("finishing an unknown id changes nothing",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2).finish("nope"),
                        List.of("a-1"), List.of(), List.of()),
                c("resubmitting a finished id changes nothing",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2).finish("a-1").submit("a-1", "a", 2),
                        List.of(), List.of(), List.of()),
                c("a workload id submitted twice is one workload",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 1).submit("a-1", "a", 1).submit("a-2", "a", 1),
                        List.of("a-1", "a-2"), List.of(), List.of()),
                c("a preempted workload keeps its submission time and returns ahead of later ones",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "inference")
                                .submit("a-3", "a", 2, "experiment").finish("a-2"),
                        List.of("a-1"), List.of("a-3"), List.of("a-1")),
                c("an inactive team's workloads wait",
                        Cluster.gpus(2).team("a", 2, q -> q.withActive(false)).submit("a-1", "a", 1),
                        List.of(), List.of("a-1"), List.of())
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void outcome(Case c) {
        assertThat(c.cluster().run()).isEqualTo(c.expected());
    }
}
