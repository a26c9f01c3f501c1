package dev.taskgov.core.estimate;

import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.scheduling.Cluster;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

import static dev.taskgov.core.scheduling.Cluster.borrowLimit;
import static dev.taskgov.core.scheduling.Cluster.dontLend;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The forecast of every pending workload's start, compared whole: a cluster as the steps leave it (the test cluster's
 * clock starts at 10:00:00 and each step takes a second, so the first workload is admitted at 10:00:01), the run times
 * known, and the time of the forecast.
 */
class StartForecastTest {

    static final String DAY = "2026-11-30T";

    static Instant t(String hhmmss) {
        return Instant.parse(DAY + hhmmss + "Z");
    }

    /** The forecast's inputs: a cluster, declared run times by workload id, learned ones, and when it is made. */
    static final class Forecast {
        final Cluster cluster;
        final Map<String, Duration> declared = new HashMap<>();
        final LearnedRunTimes learned = new LearnedRunTimes();
        Instant now = t("10:01:00");

        private Forecast(Cluster cluster) {
            this.cluster = cluster;
        }

        static Forecast of(Cluster cluster) {
            return new Forecast(cluster);
        }

        Forecast declares(String id, String iso) {
            declared.put(id, Duration.parse(iso));
            return this;
        }

        Forecast finished(String team, String priorityClass, String iso) {
            learned.observe(team, priorityClass, Duration.parse(iso));
            return this;
        }

        Forecast at(String hhmmss) {
            now = t(hhmmss);
            return this;
        }

        Optional<RunTime> runTime(Workload w) {
            Duration d = declared.get(w.id());
            return d != null ? Optional.of(RunTime.declared(d)) : learned.estimate(w.team(), w.priorityClass());
        }

        Map<String, StartEstimate> run() {
            return StartForecast.of(cluster.replay().scheduler(), this::runTime, now).estimates();
        }
    }

    /** Expected estimates, in queue order. */
    static final class Expect {
        final Map<String, StartEstimate> out = new LinkedHashMap<>();
        final Instant now;

        Expect(String now) {
            this.now = t(now);
        }

        static Expect at(String now) {
            return new Expect(now);
        }

        Expect starts(String id, String hhmmss, int ahead, int declared, int learned) {
            out.put(id, StartEstimate.at(id, now, t(hhmmss), ahead, declared, learned));
            return this;
        }

        /** A start that waits out the workload's gang admission backoff, which ends at {@code backoffEnds}. */
        Expect startsAfterBackoff(String id, String hhmmss, int ahead, int declared, int learned, String backoffEnds) {
            out.put(id, new StartEstimate(id, now, t(hhmmss), ahead, declared, learned, t(backoffEnds), null));
            return this;
        }

        Expect unknown(String id, String because) {
            out.put(id, StartEstimate.unknown(id, now, because));
            return this;
        }
    }

    record Case(String name, Forecast forecast, Expect expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** Gang admission: every pod ready within a second of the admission, else a backoff of 10 minutes. */
    static final WaitForPodsReady GANG = new WaitForPodsReady(Duration.ofSeconds(1), Duration.ofMinutes(10), Duration.ofHours(1), null);

    static final String NO_KNOWN_END = "no running workload has a known end (none declares taskgov.dev/expected-runtime, "
            + "and no finished workload gives a run time to learn from)";

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a pending workload starts when the running one's declared run time is over",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4).submit("a-2", "a", 4))
                                .declares("a-1", "PT1H"),
                        Expect.at("10:01:00").starts("a-2", "11:00:01", 0, 1, 0)),
                new Case("the queue behind it waits for its learned run time as well, and counts it ahead",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend())
                                        .submit("a-1", "a", 4).submit("a-2", "a", 4).submit("a-3", "a", 4))
                                .declares("a-1", "PT1H").finished("a", "training", "PT30M"),
                        Expect.at("10:01:00").starts("a-2", "11:00:01", 0, 1, 0).starts("a-3", "11:30:01", 1, 1, 1)),
                new Case("behind a workload with no known run time it is unknown, and says how many run without one",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend())
                                        .submit("a-1", "a", 4).submit("a-2", "a", 4).submit("a-3", "a", 4))
                                .declares("a-1", "PT1H"),
                        Expect.at("10:01:00").starts("a-2", "11:00:01", 0, 1, 0).unknown("a-3", "it is not admitted before the "
                                + "work with a known end is done; 1 workload runs on its instance types with no known end (no declared or learned run time)")),
                new Case("with no declared and nothing learned nothing has a known end",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4).submit("a-2", "a", 4)),
                        Expect.at("10:01:00").unknown("a-2", NO_KNOWN_END)),
                new Case("a workload that can never be admitted is unknown whatever ends",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 2).submit("a-9", "a", 5))
                                .declares("a-1", "PT1H"),
                        Expect.at("10:01:00").unknown("a-9", "it cannot be admitted as things stand (Inadmissible), whatever ends")),
                new Case("a running workload past its expected end is taken to end at once",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).submit("a-1", "a", 4).submit("a-2", "a", 4))
                                .declares("a-1", "PT1H").at("12:00:00"),
                        Expect.at("12:00:00").starts("a-2", "12:00:00", 0, 1, 0)),
                new Case("a preemptor waiting for its evictions starts about now (delegated mode)",
                        Forecast.of(Cluster.gpus(2).team("a", 2, dontLend()).delegated()
                                .submit("a-1", "a", 2, "experiment").submit("a-2", "a", 2, "inference")),
                        Expect.at("10:01:00").starts("a-2", "10:01:00", 0, 0, 0)),
                new Case("a workload preempted in the live state starts when its preemptor's learned run time is over",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend())
                                        .submit("a-1", "a", 4, "training")
                                        .submit("a-2", "a", 4, "experiment").submit("a-3", "a", 4, "inference"))
                                .declares("a-1", "PT1H").finished("a", "inference", "PT10M").finished("b", "inference", "PT5H"),
                        Expect.at("10:01:00").starts("a-1", "10:10:03", 0, 0, 1).starts("a-2", "11:10:03", 1, 1, 1)),
                new Case("a team borrowing beyond its quota waits for its borrowing run to end",
                        Forecast.of(Cluster.gpus(4).team("a", 2).team("b", 2, borrowLimit(100))
                                        .submit("b-1", "b", 4, "inference").submit("b-2", "b", 2, "inference"))
                                .declares("b-1", "PT20M").declares("b-2", "PT2H"),
                        Expect.at("10:01:00").starts("b-2", "10:20:01", 0, 1, 0)),
                new Case("a workload backing off after its pods were not ready in time starts when its backoff ends, not at once",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).then(s -> s.waitForPodsReady(GANG))
                                .submit("a-1", "a", 4).then(s -> { })), // 10:00:03: a-1 missed its 1 s timeout, backs off 10 min
                        Expect.at("10:01:00").startsAfterBackoff("a-1", "10:10:03", 0, 0, 0, "10:10:03")),
                new Case("a workload backing off waits for its backoff and then for the work admitted meanwhile",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).then(s -> s.waitForPodsReady(GANG))
                                        .submit("a-1", "a", 4).then(s -> { }).submit("a-2", "a", 4).then(s -> s.podsReady("a-2")))
                                .declares("a-2", "PT1H"),
                        Expect.at("10:01:00").startsAfterBackoff("a-1", "11:00:04", 0, 1, 0, "10:10:03")),
                new Case("a workload backing off whose backoff outlasts the work ahead of it starts when the backoff ends",
                        Forecast.of(Cluster.gpus(4).team("a", 4, dontLend()).then(s -> s.waitForPodsReady(GANG))
                                        .submit("a-1", "a", 4).then(s -> { }).submit("a-2", "a", 4).then(s -> s.podsReady("a-2")))
                                .declares("a-2", "PT5M"),
                        Expect.at("10:01:00").startsAfterBackoff("a-1", "10:10:03", 0, 1, 0, "10:10:03"))
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void forecastsEveryPendingWorkload(Case c) {
        assertThat(c.forecast().run()).isEqualTo(c.expected().out);
    }
}
