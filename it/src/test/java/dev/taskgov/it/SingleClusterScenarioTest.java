package dev.taskgov.it;

import dev.taskgov.admission.AdmissionReads;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioFiles;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.sim.VirtualClock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every scenario file in a deployment of its own that governs one cluster and names none (the records and
 * submissions carry no {@code clusterArn}, as a single-cluster deployment allows), served by the real admission
 * and preemption deciders on a real broker: the same expectations, check by check, as {@link Simulator#run}.
 * {@link LiveScenarioTest} runs the same files as named clusters of one shared deployment.
 */
class SingleClusterScenarioTest {

    static Stream<Path> scenarios() {
        return ScenarioFiles.all(Path.of("")).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void aDeploymentOfOneUnnamedClusterAgreesWithTheSimulator(Path file) {
        Scenario scenario = Scenario.read(file);
        ScenarioResult simulated = Simulator.run(scenario, file.toString());
        List<LiveScenarioTest.Check> expected = simulated.expectations().stream()
                .map(c -> new LiveScenarioTest.Check(c.step(), c.check(), c.workloadId(), c.ok())).toList();

        List<LiveScenarioTest.Check> seen;
        try (LiveServices live = new LiveServices(scenario.name())) {
            // The admission decider's time is virtual, moved by the steps as the simulator's (a second per step,
            // an advance by its duration), so that gang admission's timers fire at the simulator's times.
            VirtualClock clock = new VirtualClock(Simulator.START);
            LiveScenarioTest.Deadlines deadlines = new LiveScenarioTest.Deadlines();
            WaitForPodsReady gang = scenario.waitForPodsReady();
            live.publishStart(scenario, ScenarioCluster.UNNAMED);
            live.startAdmission(clock, deadlines, cluster -> gang);
            live.startPreemption(Map.of());
            live.awaitQuiet();
            seen = replay(live, scenario, clock, deadlines);
        }
        assertThat(seen).as("live checks vs simulator checks of %s", file.getFileName()).isEqualTo(expected);
        assertThat(seen).as("every expectation of %s holds live", file.getFileName()).allMatch(LiveScenarioTest.Check::ok);
    }

    private static List<LiveScenarioTest.Check> replay(LiveServices live, Scenario scenario, VirtualClock clock,
                                                       LiveScenarioTest.Deadlines deadlines) {
        ScenarioCluster in = ScenarioCluster.UNNAMED;
        List<LiveScenarioTest.Check> checks = new ArrayList<>();
        Instant time = Simulator.START;
        int seenPreemptions = 0;
        for (Scenario.Step step : scenario.steps()) {
            Duration by = step instanceof Scenario.Advance a ? a.by() : Duration.ofSeconds(1);
            time = time.plus(by);
            LiveScenarioTest.advance(live, in, clock, deadlines, by);
            if (step instanceof Scenario.Advance) {
                continue; // the deciders are quiet: advance waited for each timer's decisions
            } else if (step instanceof Scenario.Expect e) {
                List<String> preempted = live.readAll(live.admissionTopics.preempted()).stream().map(r -> r.key()).toList();
                Set<String> since = new TreeSet<>(preempted.subList(seenPreemptions, preempted.size()));
                seenPreemptions = preempted.size();
                AdmissionReads decider = live.admission.readsFor(in.cluster())
                        .orElseThrow(() -> new AssertionError("no decider for the unnamed cluster"));
                checks.addAll(LiveScenarioTest.check(decider, in, e, since));
            } else {
                live.publishStep(step, time);
                live.awaitQuiet();
            }
        }
        return checks;
    }
}
