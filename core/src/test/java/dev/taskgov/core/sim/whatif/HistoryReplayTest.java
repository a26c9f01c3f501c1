package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.ValidationException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static dev.taskgov.core.sim.whatif.Window.delete;
import static dev.taskgov.core.sim.whatif.Window.dontLend;
import static dev.taskgov.core.sim.whatif.Window.newConfig;
import static dev.taskgov.core.sim.whatif.Window.quotaOf;
import static dev.taskgov.core.sim.whatif.Window.replace;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What-if replays: a recorded window replayed as recorded and with a proposed change, and the teams' figures of both
 * (docs/semantics.md, "What-if").
 */
class HistoryReplayTest {

    enum Run { AS_RECORDED, WITH_CHANGE }

    /** One figure of one team in one of the two replays. */
    record Figure(String team, Run run, String name, Object value) {
    }

    static Figure recorded(String team, String name, Object value) {
        return new Figure(team, Run.AS_RECORDED, name, value);
    }

    static Figure changed(String team, String name, Object value) {
        return new Figure(team, Run.WITH_CHANGE, name, value);
    }

    record Case(String name, Window window, ProposedChange change, List<Figure> figures) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case scenario(String name, Window window, ProposedChange change, Figure... figures) {
        return new Case(name, window, change, List.of(figures));
    }

    static Stream<Case> cases() {
        return Stream.of(
                scenario("a quota cut makes the team wait longer",
                        Window.gpus(4).quota("team-a", 2).quota("team-b", 2, Window::dontLend)
                                .ran(0, "a1", "team-a", 1, "training", 600)
                                .ran(0, "a2", "team-a", 1, "training", 600),
                        replace(quotaOf("team-a", 1)),
                        recorded("team-a", "admissions", 2), recorded("team-a", "meanWaitSeconds", 0.0),
                        recorded("team-a", "p90WaitSeconds", 0.0),
                        changed("team-a", "admissions", 2), changed("team-a", "meanWaitSeconds", 300.0),
                        changed("team-a", "p90WaitSeconds", 600.0), changed("team-a", "usedHours", 0.33)),
                scenario("lending stopped: no borrowed or lent time, and the borrower waits instead",
                        Window.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .ran(0, "b1", "team-b", 1, "training", 3600)
                                .ran(0, "b2", "team-b", 1, "training", 3600),
                        replace(dontLend(quotaOf("team-a", 1))),
                        recorded("team-b", "borrowedHours", 1.0), recorded("team-a", "lentHours", 1.0),
                        recorded("team-b", "usedHours", 2.0), recorded("team-b", "meanWaitSeconds", 0.0),
                        changed("team-b", "borrowedHours", 0.0), changed("team-a", "lentHours", 0.0),
                        changed("team-b", "usedHours", 2.0), changed("team-b", "meanWaitSeconds", 1800.0),
                        changed("team-b", "p90WaitSeconds", 3600.0)),
                scenario("a reclaim: suffered by the borrower, caused by the lender; none once the lender keeps its quota",
                        Window.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .ran(0, "b1", "team-b", 1, "training", 3600)
                                .submit(0, "b2", "team-b", 1, "training").admitted(0, "b2").admitted(1200, "b2").finished(4800, "b2")
                                .ran(600, "a1", "team-a", 1, "training", 600),
                        replace(dontLend(quotaOf("team-a", 1))),
                        recorded("team-b", "preemptionsSuffered", 1), recorded("team-a", "preemptionsCaused", 1),
                        recorded("team-b", "admissions", 3), recorded("team-a", "preemptionsSuffered", 0),
                        changed("team-b", "preemptionsSuffered", 0), changed("team-a", "preemptionsCaused", 0),
                        changed("team-b", "admissions", 2), changed("team-a", "meanWaitSeconds", 0.0)),
                scenario("a deleted quota: the team's work waits all window",
                        Window.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .submit(0, "a1", "team-a", 1, "training").admitted(0, "a1")
                                .ran(60, "b1", "team-b", 1, "training", 600),
                        delete("team-a"),
                        recorded("team-a", "admissions", 1), recorded("team-a", "usedHours", 2.0),
                        changed("team-a", "admissions", 0), changed("team-a", "pendingAtEnd", 1),
                        changed("team-a", "meanWaitSeconds", 7200.0), changed("team-a", "usedHours", 0.0),
                        changed("team-b", "admissions", 1)),
                scenario("quota moved to a waiting team: it runs at once, and the other team waits",
                        Window.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .submit(0, "b1", "team-b", 1, "training").admitted(0, "b1")
                                .submit(0, "b2", "team-b", 1, "training").admitted(0, "b2")
                                .submit(60, "a1", "team-a", 2, "training"),
                        replace(quotaOf("team-b", 0), quotaOf("team-a", 2)),
                        recorded("team-a", "pendingAtEnd", 1), recorded("team-b", "borrowedHours", 2.0),
                        changed("team-a", "pendingAtEnd", 0), changed("team-a", "meanWaitSeconds", 0.0),
                        changed("team-b", "pendingAtEnd", 2), changed("team-b", "usedHours", 0.0)),
                scenario("a workload cancelled while it waited counts no wait",
                        Window.gpus(1).quota("team-a", 1)
                                .ran(0, "a1", "team-a", 1, "training", 3600)
                                .submit(0, "a2", "team-a", 1, "training").finished(600, "a2"),
                        replace(quotaOf("team-a", 1)),
                        recorded("team-a", "submitted", 2), recorded("team-a", "admissions", 1),
                        recorded("team-a", "meanWaitSeconds", 0.0), recorded("team-a", "pendingAtEnd", 0)),
                scenario("a failed node in the window evicts in both replays",
                        Window.gpus(2).quota("team-a", 2)
                                .ran(0, "a1", "team-a", 2, "training", 1800)
                                .nodeFailed(600, "n2"),
                        replace(quotaOf("team-a", 2)),
                        recorded("team-a", "preemptionsSuffered", 1), changed("team-a", "preemptionsSuffered", 1)),
                scenario("a new scheduler config: the higher class preempts in the team",
                        Window.gpus(1).quota("team-a", 1, q -> q.withBorrowLimit(0))
                                .ran(0, "a1", "team-a", 1, "experiment", 3600)
                                .ran(600, "a2", "team-a", 1, "training", 600)
                                .config(new SchedulerConfig(Map.of("training", 50, "experiment", 50), false)),
                        newConfig(new SchedulerConfig(Map.of("training", 90, "experiment", 10), false)),
                        recorded("team-a", "preemptionsSuffered", 0), recorded("team-a", "p90WaitSeconds", 3000.0),
                        changed("team-a", "preemptionsSuffered", 1), changed("team-a", "preemptionsCaused", 1),
                        changed("team-a", "p90WaitSeconds", 0.0)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void replaysBothWays(Case c) {
        WhatIfReport report = HistoryReplay.compare(c.window().history(), c.change(), List.of(), List.of());
        List<String> seen = new ArrayList<>();
        List<String> wanted = new ArrayList<>();
        for (Figure f : c.figures()) {
            wanted.add(f.toString());
            seen.add(new Figure(f.team(), f.run(), f.name(), value(report, f)).toString());
        }
        assertThat(seen).as(c.name()).isEqualTo(wanted);
    }

    @Test
    void anUnchangedClusterReplaysTheSameBothWays() {
        Window w = Window.gpus(4).quota("team-a", 2).quota("team-b", 2)
                .ran(0, "a1", "team-a", 3, "training", 900)
                .ran(30, "b1", "team-b", 2, "training", 600)
                .ran(60, "b2", "team-b", 1, "experiment", 300)
                .submit(90, "a2", "team-a", 4, "training");
        WhatIfReport report = HistoryReplay.compare(w.history(), replace(quotaOf("team-a", 2)), List.of(), List.of());
        assertThat(report.teams()).isNotEmpty().allSatisfy(t -> assertThat(t.withChange()).isEqualTo(t.asRecorded()));
        assertThat(report.workloads()).isEqualTo(4);
        assertThat(report.change()).isEqualTo("team-a quota replaced");
    }

    @Test
    void aProposalAboveTheClusterCapacityIsRefusedNamingTheField() {
        Window w = Window.gpus(2).quota("team-a", 1).quota("team-b", 1);
        assertThatThrownBy(() -> HistoryReplay.compare(w.history(), replace(quotaOf("team-a", 2)), List.of(), List.of()))
                .isInstanceOf(ValidationException.class)
                .hasMessageContaining("ComputeQuotaConfig.ComputeQuotaResources")
                .hasMessageContaining("the quotas for ml.g5.8xlarge sum to 3 accelerators, more than the cluster's 2 accelerators");
    }

    @Test
    void aDeletionReplaysEvenWhenTheRecordedQuotasExceedTheReadyNodes() {
        Window w = Window.gpus(2).quota("team-a", 2).quota("team-b", 1).ran(0, "a1", "team-a", 1, "training", 60);
        WhatIfReport report = HistoryReplay.compare(w.history(), delete("team-b"), List.of(), List.of());
        assertThat(report.change()).isEqualTo("team-b quota deleted");
        assertThat(report.teams()).extracting(WhatIfReport.TeamComparison::team).contains("team-a");
    }

    @Test
    void aQuotaBothReplacedAndDeletedIsRefused() {
        assertThatThrownBy(() -> new ProposedChange(Map.of("team-a", quotaOf("team-a", 1)), java.util.Set.of("team-a"), null))
                .hasMessageContaining("team team-a: its quota is both replaced and deleted");
    }

    private static Object value(WhatIfReport report, Figure f) {
        WhatIfReport.TeamComparison row = report.teams().stream().filter(t -> t.team().equals(f.team())).findFirst()
                .orElseThrow(() -> new AssertionError("no team " + f.team() + " in " + report.teams()));
        TeamFigures figures = f.run() == Run.AS_RECORDED ? row.asRecorded() : row.withChange();
        RecordComponent component = Arrays.stream(TeamFigures.class.getRecordComponents()).filter(c -> c.getName().equals(f.name()))
                .findFirst().orElseThrow(() -> new AssertionError("no figure " + f.name()));
        try {
            return component.getAccessor().invoke(figures);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }
}
