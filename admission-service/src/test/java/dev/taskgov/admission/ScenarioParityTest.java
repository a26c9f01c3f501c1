package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioFiles;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.topology.Node;
import dev.taskgov.service.support.ClusterChangeRecords;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Parity: every scenario file replayed through the live decider (real broker, quota and topology
 * records published as quota-service and topology-service would, submissions and finishes as
 * events, preemptions served by the test-only {@link PreemptionStandIn}) meets the same
 * expectations as {@link Simulator#run} on the same file, check by check.
 */
class ScenarioParityTest {

    /** The repository's scenarios and the public ones of ../shared/scenarios, as the simulator's tests read them. */
    static Stream<Path> scenarios() {
        return ScenarioFiles.all(Path.of("")).stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void the_live_service_agrees_with_the_simulator(Path file) {
        Scenario scenario = Scenario.read(file);
        ScenarioResult simulated = Simulator.run(scenario, file.toString());

        List<Check> live = replayLive(scenario);

        List<Check> expected = simulated.expectations().stream()
                .map(c -> new Check(c.step(), c.check(), c.workloadId(), c.ok())).toList();
        assertThat(live).as("live checks vs simulator checks of %s", file.getFileName()).isEqualTo(expected);
        assertThat(live).as("every expectation of %s holds live", file.getFileName()).allMatch(Check::ok);
    }

    /** One checked expectation: step index, kind, workload (null for the preempted set), result. */
    record Check(int step, String check, String workloadId, boolean ok) {
    }

    private List<Check> replayLive(Scenario scenario) {
        try (LiveCluster cluster = new LiveCluster(scenario.name())) {
            DeciderTopics t = cluster.topics;
            cluster.publish(t.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(scenario.schedulerConfig()), false);
            for (TeamQuota q : scenario.quotas()) cluster.publish(t.quota(), q.team(), QuotaRecords.effectiveQuota(q), false);
            for (Node n : scenario.nodes()) cluster.publish(t.topology(), n.name(), NodeRecord.of(n), true);

            AdmissionDecider decider = cluster.startDecider(Clock.systemUTC());
            PreemptionStandIn standIn = new PreemptionStandIn(cluster);
            cluster.own(standIn);
            cluster.awaitQuiet(decider, standIn);

            List<Check> checks = new ArrayList<>();
            Instant time = Simulator.START;
            int seenPreemptions = 0;
            for (Scenario.Step step : scenario.steps()) {
                time = time.plus(Duration.ofSeconds(1));
                if (step instanceof Scenario.Submit s) {
                    WorkloadSubmitted w = s.workload().submittedAt() == null ? s.workload().withSubmittedAt(time) : s.workload();
                    // Alternate with and without CloudEvents headers: both are accepted.
                    cluster.publish(t.submitted(), w.workloadId(), w, step.index() % 2 == 0);
                    cluster.awaitQuiet(decider, standIn);
                } else if (step instanceof Scenario.Finish f) {
                    cluster.publish(t.finished(), f.workloadId(),
                            new WorkloadFinished(f.workloadId(), time, f.outcome()), true);
                    cluster.awaitQuiet(decider, standIn);
                } else if (step instanceof Scenario.Expect e) {
                    List<String> preempted = cluster.readAll(t.preempted()).stream().map(r -> r.key()).toList();
                    Set<String> since = new TreeSet<>(preempted.subList(seenPreemptions, preempted.size()));
                    seenPreemptions = preempted.size();
                    checks.addAll(check(decider.processor(), e, since));
                } else {
                    // node, removeNode, quota, deleteQuota, schedulerConfig: the record topology- or quota-service would publish
                    ClusterChangeRecords c = ClusterChangeRecords.of(step).orElseThrow();
                    cluster.publish(c.topic() == ClusterChangeRecords.Topic.QUOTA ? t.quota() : t.topology(), c.key(), c.value(), true);
                    cluster.awaitQuiet(decider, standIn);
                }
            }
            return checks;
        }
    }

    /** The simulator's checks, in its order, against the live decider's records. */
    private static List<Check> check(AdmissionProcessor live, Scenario.Expect e, Set<String> preemptedSince) {
        List<Check> out = new ArrayList<>();
        for (String id : e.admitted()) out.add(new Check(e.index(), "admitted", id, stateIs(live, id, WorkloadState.Admitted)));
        for (String id : e.pending()) out.add(new Check(e.index(), "pending", id, stateIs(live, id, WorkloadState.Pending)));
        for (String id : e.finished()) out.add(new Check(e.index(), "finished", id, stateIs(live, id, WorkloadState.Finished)));
        if (e.preemptedSinceLastExpect() != null) {
            out.add(new Check(e.index(), "preemptedSinceLastExpect", null,
                    new TreeSet<>(e.preemptedSinceLastExpect()).equals(preemptedSince)));
        }
        e.placements().forEach((id, podSets) -> {
            Optional<WorkloadRecord> r = live.workload(id).filter(w -> w.placement() != null);
            podSets.forEach((podSet, expected) -> {
                boolean ok = r.isPresent() && placementOf(r.get(), podSet).equals(expected);
                out.add(new Check(e.index(), "placements", id + "/" + podSet, ok));
            });
        });
        return out;
    }

    private static boolean stateIs(AdmissionProcessor live, String id, WorkloadState state) {
        return live.workload(id).map(w -> w.state() == state).orElse(false);
    }

    private static Map<String, Integer> placementOf(WorkloadRecord r, String podSet) {
        Map<String, Integer> out = new TreeMap<>();
        for (WorkloadAdmitted.AdmittedPodSet ps : r.placement()) {
            if (ps.name().equals(podSet)) ps.nodes().forEach(n -> out.put(n.name(), n.count()));
        }
        return out;
    }
}
