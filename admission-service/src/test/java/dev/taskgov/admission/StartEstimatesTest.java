package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.estimate.StartForecast;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.testsupport.FlatCluster;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The read side's forecasts: one per state, shared by every read of it; a workload submitted since gets a new one at
 * once, shared by the reads that wait meanwhile; a state that changed within the refresh interval keeps the last one, and after it is forecast again in the
 * background while reads keep the last; run times declared on the submission, else learned from finished records.
 */
class StartEstimatesTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");
    static final ClusterArn C = ClusterArn.UNNAMED;

    /** A real scheduler of one node of 8 accelerators, one team of 8, and the records the processor would hold. */
    static final class Fixture {
        final VirtualClock clock = new VirtualClock(T0);
        final Scheduler scheduler;
        final Map<String, WorkloadRecord> records = new LinkedHashMap<>();
        final StartEstimates estimates = new StartEstimates(clock, Duration.ofSeconds(5));

        Fixture() {
            InstanceType type = new InstanceType(FlatCluster.TYPE, FlatCluster.NODE);
            scheduler = new Scheduler(clock, Scheduler.Mode.DELEGATED, List.of(type),
                    List.of(FlatCluster.node(0, true).toNode(Map.of(type.name(), type))));
            scheduler.applySchedulerConfig(FlatCluster.SCHEDULER_CONFIG);
            scheduler.applyQuota(FlatCluster.quota("team-a", 8));
        }

        /** Submits {@code pods} one-accelerator pods (declaring {@code runtime} unless null) and runs a cycle. */
        Fixture submit(String id, int pods, String runtime) {
            clock.advance(Duration.ofSeconds(1));
            WorkloadSubmitted spec = FlatCluster.workload(id, "team-a", pods, clock.instant());
            if (runtime != null) spec = spec.withAnnotations(Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, runtime));
            scheduler.submit(spec);
            scheduler.cycle();
            WorkloadView v = scheduler.workload(id).orElseThrow();
            WorkloadRecord r = WorkloadRecord.first(spec, "team-a", "training", 50, clock.instant(), WorkloadState.Pending,
                    "Queued", "queued", clock.instant());
            if (v.state() == WorkloadState.Admitted) r = r.admit(clock.instant(), 1, List.of(), null, "admitted");
            records.put(id, r);
            return this;
        }

        /** A workload of team-a's class training that ran {@code ran} and finished before the test began. */
        Fixture finishedBefore(String id, Duration ran) {
            WorkloadSubmitted spec = FlatCluster.workload(id, "team-a", 1, T0.minus(Duration.ofHours(3)));
            records.put(id, WorkloadRecord.first(spec, "team-a", "training", 50, spec.submittedAt(), WorkloadState.Pending,
                            "Queued", "queued", spec.submittedAt())
                    .admit(T0.minus(Duration.ofHours(2)), 1, List.of(), null, "admitted")
                    .moveTo(WorkloadState.Finished, null, "finished", T0.minus(Duration.ofHours(2)).plus(ran)));
            return this;
        }

        StartEstimates.Snapshot snapshot(String... ids) {
            return estimates.snapshot(C, scheduler, records.values(), List.of(ids));
        }

        StartForecast read(String... ids) {
            return estimates.forecast(C, snapshot(ids)).orElseThrow();
        }

        Instant admittedAt(String id) {
            return records.get(id).admittedAt();
        }
    }

    @Test
    void oneForecastServesEveryReadOfTheSameState() {
        Fixture f = new Fixture().submit("w-1", 8, "PT1H").submit("w-2", 8, null);

        StartForecast first = f.read("w-2");

        assertThat(first.of("w-2").orElseThrow().expectedStart()).isEqualTo(f.admittedAt("w-1").plus(Duration.ofHours(1)));
        assertThat(f.snapshot("w-2").copy()).as("the same state is not copied again").isNull();
        assertThat(f.read("w-2")).isSameAs(first);
    }

    @Test
    void aWorkloadSubmittedSinceGetsANewForecastAtOnce() {
        Fixture f = new Fixture().submit("w-1", 8, "PT1H").submit("w-2", 8, "PT30M");
        StartForecast first = f.read("w-2");
        f.submit("w-3", 8, null);

        StartForecast second = f.read("w-3");

        assertThat(second).isNotSameAs(first);
        assertThat(second.of("w-3").orElseThrow().expectedStart())
                .isEqualTo(f.admittedAt("w-1").plus(Duration.ofHours(1)).plus(Duration.ofMinutes(30)));
    }

    @Test
    void readsOfWorkloadsTheForecastUnderWayHoldsJoinItInsteadOfForecastingAgain() {
        Fixture f = new Fixture().submit("w-1", 8, "PT1H").submit("w-2", 8, null);
        StartEstimates.Snapshot first = f.snapshot("w-2");
        f.submit("w-3", 8, null);

        StartEstimates.Snapshot joining = f.snapshot("w-2");
        StartEstimates.Snapshot another = f.snapshot("w-3");

        assertThat(joining.copy()).as("w-2 is in the copy of the forecast under way: no copy of its own").isNull();
        assertThat(another.copy()).as("w-3 was submitted after that copy was made").isNotNull();
        StartForecast made = f.estimates.forecast(C, first).orElseThrow();
        assertThat(f.estimates.forecast(C, joining).orElseThrow()).isSameAs(made);
        assertThat(f.estimates.forecast(C, another).orElseThrow().of("w-3")).isPresent();
    }

    @Test
    void aChangedStateKeepsTheLastForecastWithinTheRefreshThenForecastsAgainInTheBackground() {
        Fixture f = new Fixture().submit("w-1", 8, "PT1H").submit("w-2", 8, null);
        StartForecast first = f.read("w-2");
        f.submit("w-3", 8, null);

        assertThat(f.read("w-2")).as("within the refresh interval").isSameAs(first);

        f.clock.advance(Duration.ofSeconds(10));
        StartEstimates.Snapshot due = f.snapshot("w-2");
        assertThat(due.background()).isTrue();
        assertThat(f.estimates.forecast(C, due).orElseThrow()).as("the read keeps the last forecast meanwhile").isSameAs(first);
        await().atMost(Duration.ofSeconds(30)).until(() -> f.read("w-2").of("w-3").isPresent());
    }

    @Test
    void aRunningWorkloadWithoutADeclaredRunTimeEndsAfterItsTeamAndClassLearnedOne() {
        Fixture f = new Fixture().finishedBefore("old-1", Duration.ofMinutes(20)).finishedBefore("old-2", Duration.ofMinutes(30))
                .finishedBefore("old-3", Duration.ofMinutes(50)).submit("w-1", 8, null).submit("w-2", 8, null);

        assertThat(f.read("w-2").of("w-2").orElseThrow().expectedStart())
                .isEqualTo(f.admittedAt("w-1").plus(Duration.ofMinutes(30)));
    }
}
