package dev.taskgov.it;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PendingReason;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.testsupport.FlatCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code taskgov.dev/max-retry} on the real admission decider (the preemption decider beside it) and a real broker: a {@code Failed} finish of an
 * admitted workload with retries left makes it pending again (status {@code Pending} with reason
 * {@code RetryAfterFailure}, "retry 1 of 2"), queued as of its failure behind the workload that waited
 * while it ran; it is admitted again when room frees. The retry count is on the changelog, so a
 * decider that takes over counts on: the last retry, then a final failure (status {@code Finished},
 * reason {@code Failed}).
 */
class RetryAfterFailureLiveTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void aFailureWithRetriesLeftRequeuesAndTheCountSurvivesATakeover() {
        try (LiveServices c = new LiveServices("retry-after-failure")) {
            DeciderTopics t = c.admissionTopics;
            // one node of 8 accelerators; team-a's quota is all of it
            c.publish(t.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(FlatCluster.SCHEDULER_CONFIG));
            c.publish(t.quota(), "team-a", QuotaRecords.effectiveQuota(FlatCluster.quota("team-a", 8)));
            c.publish(t.topology(), "node-0", FlatCluster.node(0, true));
            AdmissionDecider decider = c.startAdmission();
            c.startPreemption(Map.of());
            c.awaitQuiet();

            WorkloadSubmitted train = FlatCluster.workload("a-train", "team-a", 8, T0)
                    .withAnnotations(Map.of(WorkloadSubmitted.MAX_RETRY_ANNOTATION, "2"));
            c.publish(t.submitted(), "a-train", train);
            c.awaitQuiet();
            c.publish(t.submitted(), "a-eval", FlatCluster.workload("a-eval", "team-a", 8, T0.plusSeconds(1)));
            c.awaitQuiet();
            assertThat(state(decider, "a-train")).isEqualTo(WorkloadState.Admitted);
            assertThat(state(decider, "a-eval")).isEqualTo(WorkloadState.Pending);

            // the first failure: pending again, behind a-eval, which runs now
            Instant failedFrom = Instant.now();
            c.publish(t.finished(), "a-train", new WorkloadFinished("a-train", T0.plusSeconds(60), WorkloadFinished.Outcome.Failed));
            c.awaitQuiet();
            Instant failedBy = Instant.now();
            WorkloadRecord retrying = decider.reads().workload("a-train").orElseThrow();
            assertThat(retrying.state()).isEqualTo(WorkloadState.Pending);
            assertThat(retrying.reason()).isEqualTo(PendingReason.RetryAfterFailure.name());
            assertThat(retrying.retries()).isEqualTo(1);
            // queued as of the failure as the platform received it, not the finish record's own (writer's) time
            assertThat(retrying.queuedAt()).isBetween(failedFrom, failedBy);
            assertThat(retrying.message()).startsWith("failed; retry 1 of 2, queued again as of " + retrying.queuedAt());
            assertThat(retrying.placement()).isNull();
            assertThat(state(decider, "a-eval")).isEqualTo(WorkloadState.Admitted);
            // what the status topic says of a retrying workload
            WorkloadStatus status = latestStatus(c, "a-train");
            assertThat(status.state()).isEqualTo(WorkloadState.Pending);
            assertThat(status.reason()).isEqualTo("RetryAfterFailure");
            assertThat(status.message()).startsWith("failed; retry 1 of 2");

            // a-eval ends: a-train is admitted again, a second admission on the admitted topic
            c.publish(t.finished(), "a-eval", new WorkloadFinished("a-eval", T0.plusSeconds(120), WorkloadFinished.Outcome.Succeeded));
            c.awaitQuiet();
            assertThat(state(decider, "a-train")).isEqualTo(WorkloadState.Admitted);
            assertThat(admissions(c, "a-train")).isEqualTo(2);

            // a new decider rebuilds from the changelog and counts on from 1
            decider.close();
            AdmissionDecider takeover = c.startAdmission();
            c.awaitQuiet();
            assertThat(takeover.reads().workload("a-train").orElseThrow().retries()).isEqualTo(1);
            c.publish(t.finished(), "a-train", new WorkloadFinished("a-train", T0.plusSeconds(180), WorkloadFinished.Outcome.Failed));
            c.awaitQuiet();
            WorkloadRecord second = takeover.reads().workload("a-train").orElseThrow();
            assertThat(second.retries()).isEqualTo(2);
            assertThat(second.history()).filteredOn(h -> PendingReason.RetryAfterFailure.name().equals(h.reason()))
                    .extracting(h -> h.message().substring(0, "failed; retry k of N".length()))
                    .containsExactly("failed; retry 1 of 2", "failed; retry 2 of 2");
            // nothing else waits: admitted again at once
            assertThat(second.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(admissions(c, "a-train")).isEqualTo(3);

            // retries used up: the next failure is final
            c.publish(t.finished(), "a-train", new WorkloadFinished("a-train", T0.plusSeconds(240), WorkloadFinished.Outcome.Failed));
            c.awaitQuiet();
            WorkloadRecord last = takeover.reads().workload("a-train").orElseThrow();
            assertThat(last.state()).isEqualTo(WorkloadState.Finished);
            assertThat(last.reason()).isEqualTo("Failed");
            assertThat(last.message()).isEqualTo("failed with no retries left (2 of 2 used); its resources are free");
            WorkloadStatus finalStatus = latestStatus(c, "a-train");
            assertThat(finalStatus.state()).isEqualTo(WorkloadState.Finished);
            assertThat(finalStatus.reason()).isEqualTo("Failed");
            assertThat(admissions(c, "a-train")).isEqualTo(3);
            assertThat(c.readAll(t.deadLetter())).isEmpty();
        }
    }

    private static WorkloadState state(AdmissionDecider d, String id) {
        return d.reads().workload(id).orElseThrow().state();
    }

    private static WorkloadStatus latestStatus(LiveServices c, String id) {
        List<ConsumerRecord<String, byte[]>> all = c.readAll(c.admissionTopics.status());
        return all.stream().filter(r -> id.equals(r.key())).map(r -> EventCodec.read(r.value(), WorkloadStatus.class))
                .reduce((x, y) -> y).orElseThrow();
    }

    private static long admissions(LiveServices c, String id) {
        return c.readAll(c.admissionTopics.admitted()).stream().map(r -> EventCodec.read(r.value(), WorkloadAdmitted.class))
                .filter(a -> a.workloadId().equals(id)).count();
    }
}
