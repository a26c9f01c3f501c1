package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.TeamQuota;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static dev.taskgov.core.scheduling.Cluster.G5;
import static dev.taskgov.core.scheduling.Cluster.G5_TYPE;
import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A workload that asks for more than its team could ever hold (nominal + borrowing limit) or than
 * the cluster has is Pending as {@code Inadmissible} with the numbers, not {@code BorrowLimitExceeded}
 * forever, and is admitted once the quota grows enough.
 */
class InadmissibleTest {

    @Test
    void moreThanNominalPlusBorrowLimitAndTheClusterIsInadmissibleWithTheNumbers() {
        Cluster.Replay r = Cluster.gpus(16).team("a", 8, borrowLimit(50)).team("b", 8).submit("huge", "a", 800_000).replay();
        WorkloadView v = r.scheduler().workload("huge").orElseThrow();
        assertThat(v.state().name()).isEqualTo("Pending");
        assertThat(v.reason()).isEqualTo("Inadmissible");
        assertThat(v.message()).isEqualTo("can never be admitted as things stand: asks for 800000 accelerators of "
                + G5 + "; team a may hold at most 8 nominal + 4 borrowing limit = 12, and the cluster's ready " + G5
                + " nodes offer 16; it stays pending until the quota or the cluster grows");
    }

    @Test
    void withinTheQuotaCeilingButMoreThanTheClusterIsInadmissible() {
        Cluster.Replay r = Cluster.gpus(4).team("a", 4, borrowLimit(500)).submit("wide", "a", 6).replay();
        WorkloadView v = r.scheduler().workload("wide").orElseThrow();
        assertThat(v.reason()).isEqualTo("Inadmissible");
        assertThat(v.message()).contains("asks for 6 accelerators", "4 nominal + 20 borrowing limit = 24",
                "ready " + G5 + " nodes offer 4");
    }

    @Test
    void aWorkloadThatCouldFitLaterIsNotInadmissible() {
        Cluster.Replay r = Cluster.gpus(8).team("a", 4, borrowLimit(100)).team("b", 4)
                .submit("a-1", "a", 6).submit("a-2", "a", 4).replay();
        assertThat(r.scheduler().workload("a-2").orElseThrow().reason()).isEqualTo("BorrowLimitExceeded");
    }

    @Test
    void anInadmissibleWorkloadIsAdmittedOnceItsQuotaGrows() {
        Cluster.Replay r = Cluster.gpus(16).team("a", 4).team("b", 4).submit("big", "a", 10).replay();
        Scheduler s = r.scheduler();
        assertThat(s.workload("big").orElseThrow().reason()).isEqualTo("Inadmissible");
        s.applyQuota(TeamQuota.of("a", Map.of(G5, G5_TYPE.capacity().times(12))));
        s.cycle();
        assertThat(s.workload("big").orElseThrow().state().name()).isEqualTo("Admitted");
    }

    @Test
    void dryRunSaysInadmissibleToo() {
        Scheduler s = Cluster.gpus(4).team("a", 4).replay().scheduler();
        DryRunResult d = s.dryRun(new WorkloadSubmitted("w", "hyperpod-ns-a", null, null, "PyTorchJob", null,
                List.of(new PodSetSpec("worker", 9, G5, new ResourceAmounts(BigDecimal.ONE, null, null), null, null))));
        assertThat(d.verdict()).isEqualTo(DryRunResult.Verdict.Pending);
        assertThat(d.reason()).isEqualTo("Inadmissible");
        assertThat(d.message()).contains("asks for 9 accelerators", "ready " + G5 + " nodes offer 4");
    }
}
