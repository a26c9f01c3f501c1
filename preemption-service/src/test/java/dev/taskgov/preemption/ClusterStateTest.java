package dev.taskgov.preemption;

import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** Whether a workload runs does not depend on the order in which its records of different topics arrive; a NodeReplaced placement is not an admission. */
class ClusterStateTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("admitted", List.of(ADMIT), true),
                Arguments.of("admitted then evicted", List.of(ADMIT, EVICT), false),
                Arguments.of("evicted read before its admission", List.of(EVICT, ADMIT), false),
                Arguments.of("evicted and admitted again", List.of(ADMIT, EVICT, ADMIT), true),
                Arguments.of("second admission read before the eviction", List.of(ADMIT, ADMIT, EVICT), true),
                Arguments.of("finished", List.of(ADMIT, FINISH), false),
                Arguments.of("finish read first", List.of(FINISH, ADMIT), false),
                Arguments.of("eviction emitted, not read back yet", List.of(ADMIT, EMIT), false),
                Arguments.of("eviction emitted and read back", List.of(ADMIT, EMIT, EVICT), false),
                Arguments.of("eviction emitted, read back, admitted again", List.of(ADMIT, EMIT, EVICT, ADMIT), true),
                // a new placement after a node failure is not an admission: one eviction still ends the run
                Arguments.of("admitted, moved off a failed node", List.of(ADMIT, REPLACED), true),
                Arguments.of("admitted, moved, evicted", List.of(ADMIT, REPLACED, EVICT), false),
                Arguments.of("a move alone is no admission", List.of(REPLACED), false),
                // taskgov.dev/max-retry: a failure within the retries ends one run; admission queues it again
                Arguments.of("failed without retries: finished", List.of(ADMIT, FAIL), false),
                Arguments.of("failed with a retry left, admitted again", List.of(RETRYING, ADMIT, FAIL, ADMIT), true),
                Arguments.of("the retry's admission read before the failure", List.of(RETRYING, ADMIT, ADMIT, FAIL), true),
                Arguments.of("failed with a retry left, not admitted again yet", List.of(RETRYING, ADMIT, FAIL), false),
                Arguments.of("retries used up: finished although admitted again later in the log", List.of(RETRYING, ADMIT, FAIL, ADMIT, FAIL, ADMIT), false),
                Arguments.of("the submission with its retries read last", List.of(ADMIT, FAIL, ADMIT, RETRYING), true));
    }

    static final Consumer<ClusterState> ADMIT = s -> s.onAdmitted(new WorkloadAdmitted("w", "team-a", Instant.EPOCH, Map.of(), List.of()));
    static final Consumer<ClusterState> REPLACED = s -> s.onAdmitted(new WorkloadAdmitted("w", "team-a", Instant.EPOCH, Map.of(),
            List.of(), WorkloadAdmitted.NODE_REPLACED));
    static final Consumer<ClusterState> EVICT = s -> s.onPreempted("w");
    static final Consumer<ClusterState> FINISH = s -> s.onFinished("w", WorkloadFinished.Outcome.Succeeded);
    static final Consumer<ClusterState> FAIL = s -> s.onFinished("w", WorkloadFinished.Outcome.Failed);
    /** The submission, with one retry after a failure. */
    static final Consumer<ClusterState> RETRYING = s -> s.onSubmitted(new WorkloadSubmitted("w", "hyperpod-ns-team-a", null, null, null,
            Instant.EPOCH, List.of(), Map.of(WorkloadSubmitted.MAX_RETRY_ANNOTATION, "1")));
    static final Consumer<ClusterState> EMIT = s -> s.recordEviction("w");

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void runningFollowsTheCounts(String name, List<Consumer<ClusterState>> records, boolean running) {
        ClusterState state = new ClusterState(Duration.ofMinutes(5));
        records.forEach(r -> r.accept(state));
        assertThat(state.isRunning("w")).isEqualTo(running);
    }

    /**
     * A warm standby applies the changelog (reservations, graces) as it comes, between state-topic records; a rebuild
     * applies it after them. A preemptor admitted (its first reservation is over), evicted and given room again under
     * the same key: the standby must not end up tombstoning the live reservation that a rebuild keeps.
     */
    /**
     * An admission read before its workload's submission asks the reader to look for new topics once; not when the
     * submission follows in the same read, and not again for the same workload.
     */
    @org.junit.jupiter.api.Test
    void anAdmissionWithoutItsSubmissionAsksForNewTopicsOnce() {
        ClusterState state = new ClusterState(Duration.ofMinutes(5));
        ADMIT.accept(state);
        RETRYING.accept(state); // its submission, read in the same catch-up
        assertThat(state.submissionsMissed()).as("submission read after the admission").isFalse();

        state.onAdmitted(new WorkloadAdmitted("v", "team-b", Instant.EPOCH, Map.of(), List.of()));
        assertThat(state.submissionsMissed()).as("team-b's submission not read").isTrue();
        assertThat(state.submissionsMissed()).as("asked once").isFalse();
        state.onAdmitted(new WorkloadAdmitted("v", "team-b", Instant.EPOCH, Map.of(), List.of()));
        assertThat(state.submissionsMissed()).as("the same workload again").isFalse();
        state.onAdmitted(new WorkloadAdmitted("u", "team-b", Instant.EPOCH, Map.of(), List.of()));
        assertThat(state.submissionsMissed()).as("another one").isTrue();
    }

    @org.junit.jupiter.api.Test
    void aReservationMadeAgainUnderItsKeySurvivesEitherOrderOfChangelogAndStateTopics() {
        Instant now = Instant.parse("2026-12-02T08:00:00Z");
        ChangelogRecords.Reservation first = new ChangelogRecords.Reservation("p", "team-a", 0, List.of(), now, null);
        ChangelogRecords.Reservation again = new ChangelogRecords.Reservation("p", "team-a", 1, List.of(), now, null);
        Consumer<ClusterState> admitted = s -> s.onAdmitted(new WorkloadAdmitted("p", "team-a", now, Map.of(), List.of()));
        Consumer<ClusterState> evicted = s -> s.onPreempted("p");

        ClusterState rebuilt = new ClusterState(Duration.ofMinutes(5));
        List.of(admitted, evicted).forEach(r -> r.accept(rebuilt));
        rebuilt.restoreReservation(first);
        rebuilt.restoreReservation(again);
        rebuilt.pruneEnded(now);

        ClusterState followed = new ClusterState(Duration.ofMinutes(5));
        followed.restoreReservation(first);
        admitted.accept(followed);
        evicted.accept(followed);
        followed.restoreReservation(again);
        followed.pruneEnded(now);

        assertThat(followed.preemptorState("p")).isEqualTo(rebuilt.preemptorState("p")).isEqualTo(ClusterState.PreemptorState.ROOM_RESERVED);
        assertThat(followed.drainEnded()).as("changelog keys to tombstone").isEqualTo(rebuilt.drainEnded()).isEmpty();
    }

    /**
     * A workload id belongs to the team that submitted it first, as admission decides; another team's submission of
     * the id, read here first (the teams' topics are read in no set order), must not become the workload.
     */
    @org.junit.jupiter.api.Test
    void theAdmittedTeamsSubmissionIsTheWorkloadWhateverOrderTheTeamsTopicsWereReadIn() {
        ClusterState state = new ClusterState(Duration.ofMinutes(5));
        state.onSubmitted(new WorkloadSubmitted("w", "hyperpod-ns-team-b", null, null, null, Instant.EPOCH, List.of(), Map.of()));
        state.onSubmitted(new WorkloadSubmitted("w", "hyperpod-ns-team-a", null, null, null, Instant.EPOCH.plusSeconds(1), List.of(),
                Map.of(WorkloadSubmitted.MAX_RETRY_ANNOTATION, "1")));
        assertThat(state.spec("w").team()).isEqualTo("team-b"); // not known yet whose it is
        ADMIT.accept(state); // team-a's
        assertThat(state.spec("w").team()).isEqualTo("team-a");
        assertThat(state.spec("w").maxRetry()).contains(1);
        // later submissions of the id change nothing
        state.onSubmitted(new WorkloadSubmitted("w", "hyperpod-ns-team-b", null, null, null, Instant.EPOCH, List.of(), Map.of()));
        assertThat(state.spec("w").team()).isEqualTo("team-a");
    }

    /**
     * The view forgets a finished workload once a catch-up took the topics' ends {@link ClusterState#ENDS_KEPT} after
     * its end was read, so its size follows the running work; until then a record of it read late (an admission
     * committed after its end was read) still finds it finished rather than making it run.
     */
    @org.junit.jupiter.api.Test
    void aFinishedWorkloadIsForgottenOnceACatchUpEndedLongEnoughAfterItsEndWasRead() {
        dev.taskgov.core.sim.VirtualClock clock = new dev.taskgov.core.sim.VirtualClock(Instant.parse("2026-12-02T08:00:00Z"));
        ClusterState state = new ClusterState(Duration.ofMinutes(5), clock);
        state.onSubmitted(submission("done"));
        state.onSubmitted(submission("runs"));
        state.onAdmitted(admission("runs"));
        state.onFinished("done", WorkloadFinished.Outcome.Cancelled);
        clock.advance(ClusterState.ENDS_KEPT.minusSeconds(1));
        state.caughtUp(clock.instant());
        state.forgetEnded();
        assertThat(state.workloadsHeld()).as("ended too recently to forget").isEqualTo(2);
        state.onAdmitted(admission("done")); // committed after its end was read
        assertThat(state.isRunning("done")).isFalse();

        clock.advance(Duration.ofSeconds(1));
        state.forgetEnded();
        assertThat(state.workloadsHeld()).as("no catch-up since then").isEqualTo(2);
        state.caughtUp(clock.instant());
        state.forgetEnded();
        assertThat(state.workloadsHeld()).isEqualTo(1);
        assertThat(state.preemptorState("done")).isEqualTo(ClusterState.PreemptorState.UNKNOWN);
        assertThat(state.isRunning("runs")).isTrue();
    }

    /**
     * A failure read before the submission that allows a retry ends the workload only until that submission is read:
     * the end read first no longer stands, and the end of its retry is kept for its own time.
     */
    @org.junit.jupiter.api.Test
    void anEndThatNoLongerStandsIsNotForgottenAndALaterEndIsKeptForItsOwnTime() {
        dev.taskgov.core.sim.VirtualClock clock = new dev.taskgov.core.sim.VirtualClock(Instant.parse("2026-12-02T08:00:00Z"));
        ClusterState state = new ClusterState(Duration.ofMinutes(5), clock);
        ADMIT.accept(state);
        FAIL.accept(state); // without its submission: no retries known, so finished
        clock.advance(Duration.ofSeconds(30));
        RETRYING.accept(state); // one retry: not finished after all
        ADMIT.accept(state);
        FAIL.accept(state); // the retry used: finished again, 30 s after the first end was read
        clock.advance(ClusterState.ENDS_KEPT.minusSeconds(10));
        state.caughtUp(clock.instant());
        state.forgetEnded();
        assertThat(state.workloadsHeld()).as("the first end's time is up, the standing end's is not").isEqualTo(1);
        clock.advance(Duration.ofSeconds(20));
        state.caughtUp(clock.instant());
        state.forgetEnded();
        assertThat(state.workloadsHeld()).isZero();
    }

    /** A planning view holds the running workloads of its cluster, whatever ended before them. */
    @org.junit.jupiter.api.Test
    void aPlanningViewHoldsTheRunningWorkloadsOnly() {
        ClusterState state = new ClusterState(Duration.ofMinutes(5));
        for (String id : List.of("a", "b", "c", "d")) {
            state.onSubmitted(submission(id));
            state.onAdmitted(admission(id));
        }
        state.onFinished("a", WorkloadFinished.Outcome.Succeeded);
        state.onPreempted("b");
        state.recordEviction("c");
        state.onAdmitted(admission("b"));
        assertThat(state.planningView(dev.taskgov.core.cluster.ClusterArn.UNNAMED).candidates().values().stream()
                .flatMap(List::stream).map(dev.taskgov.core.preemption.RunningWorkload::id).sorted().toList())
                .containsExactly("b", "d");
    }

    private static WorkloadSubmitted submission(String id) {
        return new WorkloadSubmitted(id, "hyperpod-ns-team-a", null, null, null, Instant.EPOCH, List.of(), Map.of());
    }

    private static WorkloadAdmitted admission(String id) {
        return new WorkloadAdmitted(id, "team-a", Instant.EPOCH, Map.of(), List.of());
    }
}
