package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static dev.taskgov.core.scheduling.ClusterChangesTest.decisions;
import static dev.taskgov.core.scheduling.ClusterChangesTest.states;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Scheduler#forget}: a workload that ended (Finished or Rejected) is forgotten once its retention elapsed, so
 * its id is unknown again; a pending or running one, or an unknown id, is not. Each case names the outcome of the
 * forget, every decision in order and every workload's final state.
 */
class ForgetTest {

    record Case(String name, Cluster cluster, String forgotten, ChangeResult.Outcome outcome, List<String> decisions,
                List<String> states) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case c(String name, Cluster cluster, String forgotten, ChangeResult.Outcome outcome, List<String> decisions,
                  List<String> states) {
        return new Case(name, cluster, forgotten, outcome, decisions, states);
    }

    static Stream<Case> cases() {
        return Stream.of(
                c("a finished workload is forgotten: it is no longer known",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2).finish("a-1"), "a-1",
                        ChangeResult.Outcome.Forgotten,
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of()),
                c("a failed workload (no retries left) is forgotten like a finished one",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2).fail("a-1"), "a-1",
                        ChangeResult.Outcome.Forgotten,
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of()),
                c("a workload that finished while it waited is forgotten; the running one stays",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-0", "a", 2).submit("a-1", "a", 2).finish("a-1"), "a-1",
                        ChangeResult.Outcome.Forgotten,
                        List.of("admit a-0 {n01=1, n02=1}"),
                        List.of("a-0 Admitted {n01=1, n02=1}")),
                c("a rejected submission (its team has no quota) is forgotten",
                        Cluster.gpus(2).team("a", 2).then(ClusterChangesTest.submitted("x-1", "nobody")), "x-1",
                        ChangeResult.Outcome.Forgotten,
                        List.of(),
                        List.of()),
                c("a running workload is kept: it holds quota and nodes",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2), "a-1",
                        ChangeResult.Outcome.Unchanged,
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}")),
                c("a pending workload is kept: it holds its place in its queue",
                        Cluster.gpus(2).team("a", 2, dontLend()).submit("a-0", "a", 2).submit("a-1", "a", 2), "a-1",
                        ChangeResult.Outcome.Unchanged,
                        List.of("admit a-0 {n01=1, n02=1}"),
                        List.of("a-0 Admitted {n01=1, n02=1}", "a-1 Pending QuotaExceeded")),
                c("a workload retrying after a failure is pending, so it is kept",
                        Cluster.gpus(2).team("a", 2, dontLend()).submitRetrying("a-1", "a", 2, 1).submit("a-2", "a", 2).fail("a-1"),
                        "a-1", ChangeResult.Outcome.Unchanged,
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-2 {n01=1, n02=1}"),
                        List.of("a-1 Pending RetryAfterFailure", "a-2 Admitted {n01=1, n02=1}")),
                c("an unknown id changes nothing",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2), "nope",
                        ChangeResult.Outcome.Unchanged,
                        List.of("admit a-1 {n01=1, n02=1}"),
                        List.of("a-1 Admitted {n01=1, n02=1}")),
                c("a forgotten id submitted again is a new workload, admitted by the usual rules",
                        Cluster.gpus(2).team("a", 2).submit("a-1", "a", 2).finish("a-1").then(s -> s.forget("a-1"))
                                .submit("a-1", "a", 1), "nope",
                        ChangeResult.Outcome.Unchanged,
                        List.of("admit a-1 {n01=1, n02=1}", "admit a-1 {n01=1}"),
                        List.of("a-1 Admitted {n01=1}")));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        ChangeResult[] result = new ChangeResult[1];
        Cluster.Replay r = c.cluster().then(s -> result[0] = s.forget(c.forgotten())).replay();
        assertThat(result[0].outcome()).as("outcome: " + result[0].message()).isEqualTo(c.outcome());
        assertThat(decisions(r.decisions())).as("decisions").isEqualTo(c.decisions());
        assertThat(states(r.scheduler())).as("final states").isEqualTo(c.states());
        if (c.outcome() == ChangeResult.Outcome.Forgotten) {
            assertThat(r.scheduler().workload(c.forgotten())).isEmpty();
            assertThat(result[0].message()).contains("retention elapsed");
        }
    }

    /** Only the two final states end a workload's life. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("endedStates")
    void endedStates(WorkloadState state, boolean ended) {
        assertThat(state.hasEnded()).isEqualTo(ended);
    }

    static Stream<org.junit.jupiter.params.provider.Arguments> endedStates() {
        return Stream.of(
                org.junit.jupiter.params.provider.Arguments.of(WorkloadState.Pending, false),
                org.junit.jupiter.params.provider.Arguments.of(WorkloadState.Admitted, false),
                org.junit.jupiter.params.provider.Arguments.of(WorkloadState.Finished, true),
                org.junit.jupiter.params.provider.Arguments.of(WorkloadState.Rejected, true));
    }
}
