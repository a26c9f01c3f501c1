package dev.taskgov.core.estimate;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Instant;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** What a person reads: the time from now, the basis, and how many are ahead. */
class StartEstimateTest {

    static final Instant T = Instant.parse("2026-11-30T10:00:00Z");

    record Case(String name, StartEstimate estimate, Instant readAt, String expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("minutes, with the ends it waits for", StartEstimate.at("w", T, T.plusSeconds(12 * 60), 3, 1, 2), T,
                        "in about 12 min, if running work ends as expected (3 ends before it: 1 declared, 2 learned from "
                                + "finished workloads); 3 workloads ahead of it"),
                new Case("hours, read later than the forecast", StartEstimate.at("w", T, T.plusSeconds(5 * 3600), 1, 1, 0),
                        T.plusSeconds(3600), "in about 4 h, if running work ends as expected (1 end before it: 1 declared, "
                                + "0 learned from finished workloads); 1 workload ahead of it"),
                new Case("days", StartEstimate.at("w", T, T.plusSeconds(3 * 86_400), 0, 0, 4), T,
                        "in about 3 days, if running work ends as expected (4 ends before it: 0 declared, 4 learned from "
                                + "finished workloads); 0 workloads ahead of it"),
                new Case("nothing has to end first", StartEstimate.at("w", T, T, 0, 0, 0), T.plusSeconds(30),
                        "about now, it can be admitted as things stand, without waiting for running work to end; 0 workloads ahead of it"),
                new Case("the expected start has passed", StartEstimate.at("w", T, T.plusSeconds(60), 0, 1, 0), T.plusSeconds(600),
                        "any time now (expected by now), if running work ends as expected (1 end before it: 1 declared, 0 learned "
                                + "from finished workloads); 0 workloads ahead of it"),
                new Case("a backoff to wait out, nothing to end first: when it ends, not about now",
                        new StartEstimate("w", T, T.plusSeconds(8 * 60), 0, 0, 0, T.plusSeconds(8 * 60), null), T,
                        "in about 8 min, once its backoff is over: not before its backoff ends at 2026-11-30T10:08:00Z (its pods "
                                + "were not all ready in time), without waiting for running work to end; 0 workloads ahead of it"),
                new Case("a backoff and ends to wait for", new StartEstimate("w", T, T.plusSeconds(20 * 60), 1, 1, 0, T.plusSeconds(8 * 60), null), T,
                        "in about 20 min, if running work ends as expected (1 end before it: 1 declared, 0 learned from finished "
                                + "workloads), and not before its backoff ends at 2026-11-30T10:08:00Z (its pods were not all ready "
                                + "in time); 1 workload ahead of it"),
                new Case("unknown says why", StartEstimate.unknown("w", T, "no running workload has a known end"), T,
                        "unknown: no running workload has a known end")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void describesForPeople(Case c) {
        assertThat(c.estimate().describe(c.readAt())).isEqualTo(c.expected());
    }
}
