package dev.taskgov.it;

import dev.taskgov.admission.AdmissionProcessor;
import dev.taskgov.admission.AdmissionTopics;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioFiles;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.model.PreemptionReason;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every public scenario replayed through the real admission decider AND the real preemption
 * decider on a real broker, with no stand-in: quota and topology records as quota- and
 * topology-service publish them, submissions and finishes as events. Each scenario must meet the
 * same expectations, check by check, as {@link Simulator#run} on the same file; every eviction
 * must name its preemptor and reason.
 */
class LiveScenarioTest {

    /** The repository's scenarios and the public ones of ../shared/scenarios, as the simulator's tests read them. */
    static Stream<Path> scenarios() {
        return ScenarioFiles.all(Path.of("")).stream();
    }

    record Check(int step, String check, String workloadId, boolean ok) {
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void both_services_live_agree_with_the_simulator(Path file) {
        Scenario scenario = Scenario.read(file);
        ScenarioResult simulated = Simulator.run(scenario, file.toString());
        List<Check> expected = simulated.expectations().stream()
                .map(c -> new Check(c.step(), c.check(), c.workloadId(), c.ok())).toList();

        try (LiveServices live = new LiveServices(scenario.name())) {
            List<Check> seen = replay(live, scenario);
            assertThat(seen).as("live checks vs simulator checks of %s", file.getFileName()).isEqualTo(expected);
            assertThat(seen).as("every expectation of %s holds live", file.getFileName()).allMatch(Check::ok);
            for (var r : live.readAll(live.admissionTopics.preempted())) {
                WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                // invariant 4: a preemption names its preemptor; an eviction by node failure or quota removal has none
                if (p.reason() != PreemptionReason.NodeFailure && p.reason() != PreemptionReason.QuotaRemoved) {
                    assertThat(p.preemptorWorkloadId()).as("preemptor of %s", p.workloadId()).isNotBlank();
                }
                assertThat(p.reason()).as("reason of %s", p.workloadId()).isNotNull();
                assertThat(p.message()).as("message of %s", p.workloadId()).isNotBlank();
            }
        }
    }

    private static List<Check> replay(LiveServices live, Scenario scenario) {
        AdmissionTopics t = live.admissionTopics;
        live.startWith(scenario);

        List<Check> checks = new ArrayList<>();
        Instant time = Simulator.START;
        int seenPreemptions = 0;
        for (Scenario.Step step : scenario.steps()) {
            time = time.plus(Duration.ofSeconds(1));
            if (step instanceof Scenario.Expect e) {
                List<String> preempted = live.readAll(t.preempted()).stream().map(r -> r.key()).toList();
                Set<String> since = new TreeSet<>(preempted.subList(seenPreemptions, preempted.size()));
                seenPreemptions = preempted.size();
                checks.addAll(check(live.admission.processor(), e, since));
            } else {
                live.publishStep(step, time);
                live.awaitQuiet();
            }
        }
        return checks;
    }

    /** The simulator's checks, in its order, against the live admission decider's records. */
    private static List<Check> check(AdmissionProcessor admission, Scenario.Expect e, Set<String> preemptedSince) {
        List<Check> out = new ArrayList<>();
        for (String id : e.admitted()) out.add(new Check(e.index(), "admitted", id, stateIs(admission, id, WorkloadState.Admitted)));
        for (String id : e.pending()) out.add(new Check(e.index(), "pending", id, stateIs(admission, id, WorkloadState.Pending)));
        if (e.preemptedSinceLastExpect() != null) {
            out.add(new Check(e.index(), "preemptedSinceLastExpect", null,
                    new TreeSet<>(e.preemptedSinceLastExpect()).equals(preemptedSince)));
        }
        e.placements().forEach((id, podSets) -> {
            Optional<WorkloadRecord> r = admission.workload(id).filter(w -> w.placement() != null);
            podSets.forEach((podSet, nodes) -> {
                Map<String, Integer> expected = new TreeMap<>();
                nodes.forEach((n, c) -> {
                    if (c != 0) expected.put(n, c);
                });
                boolean ok = r.isPresent() && placementOf(r.get(), podSet).equals(expected);
                out.add(new Check(e.index(), "placements", id + "/" + podSet, ok));
            });
        });
        return out;
    }

    private static boolean stateIs(AdmissionProcessor admission, String id, WorkloadState state) {
        return admission.workload(id).map(w -> w.state() == state).orElse(false);
    }

    private static Map<String, Integer> placementOf(WorkloadRecord r, String podSet) {
        Map<String, Integer> out = new TreeMap<>();
        for (WorkloadAdmitted.AdmittedPodSet ps : r.placement()) {
            if (ps.name().equals(podSet)) ps.nodes().forEach(n -> out.put(n.name(), n.count()));
        }
        return out;
    }
}
