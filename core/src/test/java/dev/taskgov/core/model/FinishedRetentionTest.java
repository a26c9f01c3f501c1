package dev.taskgov.core.model;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@link FinishedRetention}: when a workload in a state since a time is to be forgotten. */
class FinishedRetentionTest {

    private static final Instant ENDED = Instant.parse("2026-12-02T05:00:00Z");

    record Case(String name, Duration period, WorkloadState state, Duration after, boolean forgotten) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        Duration hour = Duration.ofHours(1);
        return Stream.of(
                new Case("finished, within its retention: kept", hour, WorkloadState.Finished, Duration.ofMinutes(59), false),
                new Case("finished, its retention just elapsed: forgotten", hour, WorkloadState.Finished, hour, true),
                new Case("finished, long after: forgotten", hour, WorkloadState.Finished, Duration.ofDays(3), true),
                new Case("rejected, within its retention: kept", hour, WorkloadState.Rejected, Duration.ofSeconds(1), false),
                new Case("rejected, after its retention: forgotten", hour, WorkloadState.Rejected, hour.plusSeconds(1), true),
                new Case("admitted for days: never forgotten (it holds quota)", hour, WorkloadState.Admitted, Duration.ofDays(3), false),
                new Case("pending for days: never forgotten (it holds its place)", hour, WorkloadState.Pending, Duration.ofDays(3), false),
                new Case("a zero retention forgets a finished workload at the first look", Duration.ZERO, WorkloadState.Finished,
                        Duration.ZERO, true),
                new Case("a zero retention still keeps a running one", Duration.ZERO, WorkloadState.Admitted, Duration.ofDays(1), false));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void rule(Case c) {
        FinishedRetention r = new FinishedRetention(c.period());
        assertThat(r.elapsed(c.state(), ENDED, ENDED.plus(c.after()))).isEqualTo(c.forgotten());
        assertThat(r.forgetAt(c.state(), ENDED)).isEqualTo(c.state().hasEnded()
                ? java.util.Optional.of(ENDED.plus(c.period())) : java.util.Optional.empty());
    }

    @Test
    void aNegativePeriodIsRefusedSayingTheRule() {
        assertThatThrownBy(() -> new FinishedRetention(Duration.ofMinutes(-1)))
                .hasMessage("finished retention: must be zero or positive, was PT-1M");
    }

    @Test
    void theDefaultIsOneHour() {
        assertThat(Duration.parse(FinishedRetention.DEFAULT_PERIOD)).isEqualTo(Duration.ofHours(1));
    }

    @Test
    void moreEndedWorkloadsThanTheBoundAreOverItAndANegativeBoundIsRefused() {
        FinishedRetention two = new FinishedRetention(Duration.ofHours(1), 2);
        assertThat(two.overBound(2)).isFalse();
        assertThat(two.overBound(3)).isTrue();
        assertThat(new FinishedRetention(Duration.ofHours(1)).overBound(Integer.MAX_VALUE)).as("no bound").isFalse();
        assertThat(Integer.parseInt(FinishedRetention.DEFAULT_MAX_ENDED)).isEqualTo(20_000);
        assertThatThrownBy(() -> new FinishedRetention(Duration.ofHours(1), -1))
                .hasMessage("finished retention max-ended: must be zero or positive, was -1");
    }
}
