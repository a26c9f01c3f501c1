package dev.taskgov.service.support;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The rule that decides whether a turn waits out the commit interval: a lone record and a trickle are decided at once,
 * a stream at the rate or faster is batched, and the loop stops batching when the stream slows. Each scenario is a
 * series of turns (start in ms on a fake clock, records read) with the answer expected after each.
 */
class CommitPacerTest {

    /** A scenario: the pacer's interval and rate, then turns with their expected answer. */
    record Scenario(String name, Duration interval, int fromRate, List<Turn> turns) {
        @Override
        public String toString() {
            return name;
        }
    }

    record Turn(long atMs, int records, boolean waits) {
    }

    private static final class Builder {
        private final String name;
        private Duration interval = Duration.ofMillis(50);
        private int fromRate = 500;
        private final List<Turn> turns = new ArrayList<>();

        private Builder(String name) {
            this.name = name;
        }

        Builder interval(long ms) {
            interval = Duration.ofMillis(ms);
            return this;
        }

        Builder fromRate(int perSecond) {
            fromRate = perSecond;
            return this;
        }

        Builder decidesAtOnce(long atMs, int records) {
            turns.add(new Turn(atMs, records, false));
            return this;
        }

        Builder batches(long atMs, int records) {
            turns.add(new Turn(atMs, records, true));
            return this;
        }

        Scenario build() {
            return new Scenario(name, interval, fromRate, List.copyOf(turns));
        }
    }

    private static Builder scenario(String name) {
        return new Builder(name);
    }

    static Stream<Scenario> scenarios() {
        return Stream.of(
                // 50 ms at 500/s: 25 records within an interval make a turn wait.
                scenario("a lone record after a quiet spell is decided at once")
                        .decidesAtOnce(0, 1).decidesAtOnce(1_000, 1).build(),
                scenario("the free cluster's 200 records a second (a submission and a finish every 10 ms) never wait")
                        .decidesAtOnce(0, 1).decidesAtOnce(5, 1).decidesAtOnce(10, 1).decidesAtOnce(15, 1)
                        .decidesAtOnce(20, 1).decidesAtOnce(25, 1).decidesAtOnce(30, 1).decidesAtOnce(35, 1)
                        .decidesAtOnce(40, 1).decidesAtOnce(45, 1).decidesAtOnce(50, 1).decidesAtOnce(55, 1).build(),
                scenario("a steady 1,000 records a second starts batching once an interval holds 25, and goes on")
                        .decidesAtOnce(0, 4).decidesAtOnce(4, 4).decidesAtOnce(8, 4).decidesAtOnce(12, 4)
                        .decidesAtOnce(16, 4).decidesAtOnce(20, 4).batches(24, 4)
                        // each batched turn holds what came in one interval: 50 records
                        .batches(75, 50).batches(126, 50).batches(177, 50).build(),
                scenario("a burst of 25 in one poll batches at once")
                        .batches(0, 25).build(),
                scenario("when the stream slows below the rate the next turn decides at once")
                        .batches(0, 60).batches(51, 50).decidesAtOnce(102, 10).decidesAtOnce(110, 2).build(),
                scenario("turns older than the interval no longer count")
                        .decidesAtOnce(0, 20).decidesAtOnce(49, 4).decidesAtOnce(50, 4).batches(60, 18).build(),
                scenario("the threshold rounds up: 20 ms at 500/s is 10 records")
                        .interval(20).decidesAtOnce(0, 9).batches(10, 1).build(),
                scenario("a rate of 0 is a fixed interval: every turn that read records waits")
                        .fromRate(0).batches(0, 1).batches(1_000, 1).build(),
                scenario("an interval of 0 never waits")
                        .interval(0).decidesAtOnce(0, 5_000).decidesAtOnce(1, 5_000).build(),
                scenario("a turn that read nothing neither waits nor counts")
                        .decidesAtOnce(0, 0).decidesAtOnce(1, 24).decidesAtOnce(2, 0).batches(3, 1).build());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void answersEachTurnAsTheRuleSays(Scenario s) {
        CommitPacer pacer = new CommitPacer(s.interval(), s.fromRate());
        long origin = 7_000_000_000L; // nanoTime readings are arbitrary: not from 0
        List<Boolean> answers = new ArrayList<>();
        for (Turn t : s.turns()) answers.add(pacer.waitsAfter(origin + t.atMs() * 1_000_000L, t.records()));
        assertThat(answers).as(s.name()).containsExactlyElementsOf(s.turns().stream().map(Turn::waits).toList());
    }
}
