package dev.taskgov.topology.capacity;

import dev.taskgov.core.events.WorkloadFinished.Outcome;
import dev.taskgov.core.resources.Resources;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What admitted workloads hold per node as submissions, admissions, NodeReplaced placements, preemptions, finishes
 * and retries arrive, in any order across the topics; and what is kept once the consumer has read past a release.
 */
class WorkloadHoldsTest {

    static final Resources GPU = Resources.of(1, 4_000, 16 * 1024);
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    record Case(String name, Consumer<WorkloadHolds> events, Map<String, Resources> held) {
        @Override
        public String toString() {
            return name;
        }
    }

    static List<WorkloadHolds.PodSetPlacement> on(Map<String, Integer> pods) {
        return List.of(new WorkloadHolds.PodSetPlacement("worker", pods));
    }

    static Instant at(int seconds) {
        return T0.plusSeconds(seconds);
    }

    /** A submission of one GPU per worker pod, made just before T0, with this max-retry (null: none). */
    static void submit(WorkloadHolds h, String id, Integer maxRetry) {
        h.submitted(id, Map.of("worker", GPU), maxRetry, at(-1));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("an admission holds its pods' requests on its nodes", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 1, "n2", 1)));
                }, Map.of("n1", GPU, "n2", GPU)),
                new Case("an admission read before its submission holds once the submission is read", h -> {
                    h.admitted("w", T0, on(Map.of("n1", 1)));
                    submit(h, "w", null);
                }, Map.of("n1", GPU)),
                new Case("a NodeReplaced placement (later admittedAt) replaces the whole placement: the failed node holds nothing", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 1, "n2", 1)));
                    h.admitted("w", at(5), on(Map.of("n2", 1, "n3", 1)));
                }, Map.of("n2", GPU, "n3", GPU)),
                new Case("a NodeFailure eviction (no preemptor) releases the placement", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.preempted("w", at(5));
                }, Map.of()),
                new Case("a NodeReplaced placement older than an eviction holds nothing", h -> {
                    h.submitted("w", Map.of("worker", GPU));
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.preempted("w", at(9));
                    h.admitted("w", at(5), on(Map.of("n2", 2)));
                }, Map.of()),
                new Case("a preemption then a later re-admission holds the new placement", h -> {
                    submit(h, "w", null);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.preempted("w", at(5));
                    h.admitted("w", at(9), on(Map.of("n2", 1)));
                }, Map.of("n2", GPU)),
                new Case("a finish releases its admission", h -> {
                    submit(h, "w", null);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.finished("w", at(10), Outcome.Succeeded);
                }, Map.of()),
                new Case("a finish then a late admission record (made before it, read after it) holds nothing", h -> {
                    submit(h, "w", null);
                    h.finished("w", at(10), Outcome.Succeeded);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                }, Map.of()),
                new Case("a cancel of a pending workload: an admission made before it and read after it holds nothing", h -> {
                    submit(h, "w", null);
                    h.finished("w", at(5), Outcome.Cancelled);
                    h.admitted("w", at(1), on(Map.of("n1", 1)));
                }, Map.of()),
                new Case("a retry after a Failed finish (max-retry 1) holds its new placement", h -> {
                    submit(h, "w", 1);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.finished("w", at(10), Outcome.Failed);
                    h.admitted("w", at(20), on(Map.of("n2", 2)));
                }, Map.of("n2", GPU.times(2))),
                new Case("a retry read before the failure it follows (the admitted topic ahead) keeps holding", h -> {
                    submit(h, "w", 1);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.admitted("w", at(20), on(Map.of("n2", 2)));
                    h.finished("w", at(10), Outcome.Failed);
                }, Map.of("n2", GPU.times(2))),
                new Case("a failure read twice (forwarded to its cluster's partition) uses one retry, not two", h -> {
                    submit(h, "w", 1);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.finished("w", at(10), Outcome.Failed);
                    h.finished("w", at(10), Outcome.Failed);
                    h.admitted("w", at(20), on(Map.of("n2", 1)));
                }, Map.of("n2", GPU)),
                new Case("failures read before the submission count when it comes: one retry left holds", h -> {
                    h.finished("w", at(10), Outcome.Failed);
                    submit(h, "w", 2);
                    h.admitted("w", at(20), on(Map.of("n2", 1)));
                }, Map.of("n2", GPU)),
                new Case("failures read before the submission count when it comes: none left, the workload ended", h -> {
                    h.finished("w", at(10), Outcome.Failed);
                    h.finished("w", at(30), Outcome.Failed);
                    submit(h, "w", 1);
                    h.admitted("w", at(40), on(Map.of("n2", 1)));
                }, Map.of()),
                new Case("a Failed finish with no max-retry is final: its requests go", h -> {
                    submit(h, "w", null);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.finished("w", at(10), Outcome.Failed);
                    h.admitted("w", at(20), on(Map.of("n2", 1)));
                }, Map.of()),
                new Case("the failure past the last retry is final", h -> {
                    submit(h, "w", 1);
                    h.admitted("w", T0, on(Map.of("n1", 2)));
                    h.finished("w", at(10), Outcome.Failed);
                    h.admitted("w", at(20), on(Map.of("n2", 1)));
                    h.finished("w", at(30), Outcome.Failed);
                    h.admitted("w", at(40), on(Map.of("n3", 1)));
                }, Map.of()),
                new Case("a submission read after the end it belongs to is not kept again", h -> {
                    h.admitted("w", T0, on(Map.of("n1", 1)));
                    h.finished("w", at(10), Outcome.Succeeded);
                    submit(h, "w", null);
                    h.admitted("w", at(20), on(Map.of("n2", 1)));
                }, Map.of()),
                new Case("the same id submitted after the end is a new workload", h -> {
                    submit(h, "w", null);
                    h.admitted("w", T0, on(Map.of("n1", 1)));
                    h.finished("w", at(10), Outcome.Succeeded);
                    h.submitted("w", Map.of("worker", GPU.times(2)), null, at(3600));
                    h.admitted("w", at(3601), on(Map.of("n2", 1)));
                }, Map.of("n2", GPU.times(2))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void holds(Case c) {
        WorkloadHolds h = new WorkloadHolds();
        c.events().accept(h);
        assertThat(h.heldPerNode()).isEqualTo(c.held());
    }

    /** The same events, with every generation sealed and forgotten after each one (the consumer caught up at once). */
    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void holdsTheSameWhenMarkersAreForgottenAsSoonAsReadPast(Case c) {
        WorkloadHolds h = new WorkloadHolds();
        c.events().accept(h);
        h.forgetMarkersThrough(h.sealMarkers());
        assertThat(h.heldPerNode()).isEqualTo(c.held());
    }

    /**
     * A workload id belongs to the team that submitted it first, as admission decides: another team's submission of
     * the id, read first here (the teams' topics are read in no set order), does not decide what the workload holds.
     */
    @Test
    void theAdmittedTeamsSubmissionDecidesWhatTheWorkloadHolds() {
        WorkloadHolds h = new WorkloadHolds();
        h.submitted("w", "team-b", Map.of("worker", GPU.times(8)), null, T0);
        h.submitted("w", "team-a", Map.of("worker", GPU), null, at(1));
        h.admitted("w", "team-a", at(2), on(Map.of("n1", 2)), dev.taskgov.core.cluster.ClusterArn.UNNAMED);
        assertThat(h.heldPerNode()).isEqualTo(Map.of("n1", GPU.times(2)));
        // a later submission by another team changes nothing
        h.submitted("w", "team-b", Map.of("worker", GPU.times(8)), null, at(3));
        assertThat(h.heldPerNode()).isEqualTo(Map.of("n1", GPU.times(2)));
    }

    @Test
    void aMarkerIsForgottenOnceItsGenerationIsReadPastAndUntilThenALateAdmissionHoldsNothing() {
        WorkloadHolds h = new WorkloadHolds();
        submit(h, "w", null);
        h.finished("w", at(10), Outcome.Succeeded);
        assertThat(h.markerCount()).isEqualTo(1);
        long sealed = h.sealMarkers();
        assertThat(h.sealMarkers()).as("nothing recorded since").isZero();

        assertThat(h.admitted("w", T0, on(Map.of("n1", 1)))).as("read before the position passed the snapshot").isFalse();
        h.forgetMarkersThrough(sealed);

        assertThat(h.tracks("w")).isFalse();
        assertThat(h.trackedCount()).isZero();
        assertThat(h.markerCount()).isZero();
    }

    @Test
    void aMarkerRecordedAfterASealWaitsForItsOwnGeneration() {
        WorkloadHolds h = new WorkloadHolds();
        h.finished("w1", at(10), Outcome.Succeeded);
        long first = h.sealMarkers();
        h.finished("w2", at(10), Outcome.Succeeded);

        h.forgetMarkersThrough(first);
        assertThat(h.tracks("w1")).isFalse();
        assertThat(h.tracks("w2")).isTrue();
        assertThat(h.admitted("w2", at(5), on(Map.of("n1", 1)))).isFalse();

        h.forgetMarkersThrough(h.sealMarkers());
        assertThat(h.trackedCount()).isZero();
    }

    @Test
    void aWorkloadMarkedAgainInALaterGenerationKeepsItsLaterMarker() {
        WorkloadHolds h = new WorkloadHolds();
        submit(h, "w", 1);
        h.admitted("w", T0, on(Map.of("n1", 1)));
        h.finished("w", at(10), Outcome.Failed);
        long first = h.sealMarkers();
        h.admitted("w", at(20), on(Map.of("n2", 1)));
        h.finished("w", at(30), Outcome.Succeeded);

        h.forgetMarkersThrough(first);
        assertThat(h.admitted("w", at(25), on(Map.of("n3", 1)))).as("made before the second finish").isFalse();
        assertThat(h.heldPerNode()).isEmpty();

        h.forgetMarkersThrough(h.sealMarkers());
        assertThat(h.trackedCount()).isZero();
        assertThat(h.admittedCount()).isZero();
    }

    @Test
    void aRetriedWorkloadKeepsItsRequestsPastItsMarkerAndHoldsWhenAdmittedAgain() {
        WorkloadHolds h = new WorkloadHolds();
        submit(h, "w", 1);
        h.admitted("w", T0, on(Map.of("n1", 1)));
        h.finished("w", at(10), Outcome.Failed);
        h.forgetMarkersThrough(h.sealMarkers());
        assertThat(h.tracks("w")).as("pending again, waiting for its retry").isTrue();

        h.admitted("w", at(600), on(Map.of("n2", 1)));
        assertThat(h.heldPerNode()).isEqualTo(Map.of("n2", GPU));
    }

    @Test
    void afterManyWorkloadsEndInEveryOrderNothingIsKept() {
        WorkloadHolds h = new WorkloadHolds();
        int n = 20_000;
        // In order, 500 per batch as the loop applies them, sealing and forgetting after each batch.
        for (int b = 0; b < n; b += 500) {
            long sealed = batch(h, b, 500, false);
            h.forgetMarkersThrough(sealed);
        }
        assertThat(h.trackedCount()).isZero();
        assertThat(h.admittedCount()).isZero();
        assertThat(h.markerCount()).isZero();

        // A catch-up that reads the finishes before the admissions and the submissions: the markers wait until then.
        long sealed = batch(h, n, n, true);
        assertThat(h.heldPerNode()).isEmpty();
        h.forgetMarkersThrough(sealed);
        assertThat(h.trackedCount()).isZero();
        assertThat(h.admittedCount()).isZero();
        assertThat(h.markerCount()).isZero();
    }

    /** {@code count} workloads from {@code from}: each submitted, admitted and finished (every fifth retried once). */
    private static long batch(WorkloadHolds h, int from, int count, boolean finishesFirst) {
        h.update(holds -> {
            for (int i = from; i < from + count; i++) {
                String id = "w-" + i;
                boolean retried = i % 5 == 0;
                if (finishesFirst) finishes(holds, id, retried);
                holds.submitted(id, Map.of("worker", GPU), retried ? 1 : null, at(-1));
                holds.admitted(id, T0, on(Map.of("n" + i % 32, 1)));
                if (retried) holds.admitted(id, at(20), on(Map.of("n" + (i + 1) % 32, 1)));
                if (!finishesFirst) finishes(holds, id, retried);
            }
        });
        return h.sealMarkers();
    }

    private static void finishes(WorkloadHolds holds, String id, boolean retried) {
        if (retried) holds.finished(id, at(10), Outcome.Failed);
        holds.finished(id, at(30), Outcome.Succeeded);
    }
}
