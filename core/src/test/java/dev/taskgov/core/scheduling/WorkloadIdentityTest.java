package dev.taskgov.core.scheduling;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadIdTaken;
import dev.taskgov.core.model.WorkloadState;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A workload id belongs to the team that first submitted it: another team's submission of it is refused
 * ({@link SubmitResult.IdTaken}, naming neither the owner nor its state) and changes nothing; the owner resubmitting
 * its own id changes nothing either, as before.
 */
class WorkloadIdentityTest {

    private static WorkloadSubmitted submission(String id, String team, int gpus) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, null, "training-priority", "PyTorchJob", null,
                List.of(new PodSetSpec("worker", gpus, Cluster.G5, new ResourceAmounts(BigDecimal.ONE, null, null), null, null)));
    }

    @Test
    void anotherTeamsSubmissionOfATakenIdIsRefusedAndChangesNothing() {
        Scheduler s = Cluster.gpus(4).team("a", 2).team("b", 2).replay().scheduler();
        assertThat(s.submit(submission("a-train-7", "a", 1))).isInstanceOf(SubmitResult.Accepted.class);
        s.cycle();
        Instant submittedAt = s.workload("a-train-7").orElseThrow().submittedAt();

        SubmitResult taken = s.submit(submission("a-train-7", "b", 2));

        assertThat(taken).isInstanceOf(SubmitResult.IdTaken.class);
        WorkloadIdTaken refusal = ((SubmitResult.IdTaken) taken).refusal();
        assertThat(refusal.violation().field()).isEqualTo("workloadId");
        assertThat(refusal.message()).startsWith("WorkloadIdTaken: workloadId: 'a-train-7' is taken")
                .contains("team 'b' is not that team").doesNotContain("team 'a'").doesNotContain("Admitted");
        s.cycle();
        WorkloadView kept = s.workload("a-train-7").orElseThrow();
        assertThat(kept.team()).isEqualTo("a");
        assertThat(kept.state()).isEqualTo(WorkloadState.Admitted);
        assertThat(kept.submittedAt()).isEqualTo(submittedAt);
        assertThat(s.queue("b")).isEmpty();
    }

    @Test
    void theOwnerResubmittingItsOwnIdChangesNothingAsBefore() {
        Scheduler s = Cluster.gpus(4).team("a", 2).replay().scheduler();
        s.submit(submission("a-1", "a", 1));
        assertThat(s.submit(submission("a-1", "a", 2))).isInstanceOf(SubmitResult.Ignored.class);
    }

    @Test
    void aRejectedIdBelongsToItsTeamToo() {
        Scheduler s = Cluster.gpus(4).team("a", 2).team("b", 2).replay().scheduler();
        s.submit(new WorkloadSubmitted("a-bad", "hyperpod-ns-a", null, "no-such-class", "PyTorchJob", null,
                List.of(new PodSetSpec("worker", 1, Cluster.G5, new ResourceAmounts(BigDecimal.ONE, null, null), null, null))));
        assertThat(s.workload("a-bad").orElseThrow().state()).isEqualTo(WorkloadState.Rejected);
        assertThat(s.submit(submission("a-bad", "b", 1))).isInstanceOf(SubmitResult.IdTaken.class);
    }
}
