package dev.taskgov.it;

import dev.taskgov.admission.AdmissionObserver;
import dev.taskgov.admission.AdmissionReads;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.sim.Scenario;
import dev.taskgov.core.sim.ScenarioFiles;
import dev.taskgov.core.sim.ScenarioResult;
import dev.taskgov.core.sim.Simulator;
import dev.taskgov.core.sim.VirtualClock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Every public scenario replayed through the real admission decider AND the real preemption
 * decider on a real broker, with no stand-in: quota and topology records as quota- and
 * topology-service publish them, submissions and finishes as events. All scenarios run in ONE
 * deployment (one set of topics, one admission and one preemption decider, started once), each in a
 * cluster of its own that it declares ({@link ScenarioCluster}: its records name its cluster, its
 * workload ids carry its prefix); the clusters spread over the partitions of the workload topics, so a
 * partition's processor decides for several scenarios at once. Each scenario must meet the same
 * expectations, check by check, as {@link Simulator#run} on the same file, reading its cluster's
 * decider; every eviction must name its preemptor and reason, and every record of its workloads its
 * cluster. Time is the admission decider's clock, virtual as the simulator's: each step moves it by one second, an
 * {@code advance} step by its duration, and gang admission's timers due meanwhile (a scenario's top-level
 * {@code waitForPodsReady}, its cluster's setting) are acted on one at a time, in time order, at their own time.
 */
class LiveScenarioTest {

    /** The shared deployment; each scenario adds its cluster to it. */
    private static LiveServices live;
    private static final AtomicInteger CLUSTERS = new AtomicInteger();
    /** The admission decider's time: moved by the steps only, as the simulator's. */
    private static final VirtualClock CLOCK = new VirtualClock(Simulator.START);
    /** Gang admission's setting of each scenario's cluster (none: off). */
    private static final Map<ClusterArn, WaitForPodsReady> GANG = new ConcurrentHashMap<>();
    private static final Deadlines DEADLINES = new Deadlines();

    /** The repository's scenarios and the public ones of ../shared/scenarios, as the simulator's tests read them. */
    static Stream<Path> scenarios() {
        return ScenarioFiles.all(Path.of("")).stream();
    }

    record Check(int step, String check, String workloadId, boolean ok) {
    }

    @BeforeAll
    static void deploy() {
        live = new LiveServices("scenarios");
        live.startAdmission(CLOCK, DEADLINES, GANG::get);
        live.startPreemption(Map.of());
        live.awaitQuiet();
    }

    @AfterAll
    static void undeploy() {
        if (live != null) live.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void bothServicesLiveAgreeWithTheSimulator(Path file) {
        Scenario scenario = Scenario.read(file);
        ScenarioResult simulated = Simulator.run(scenario, file.toString());
        List<Check> expected = simulated.expectations().stream()
                .map(c -> new Check(c.step(), c.check(), c.workloadId(), c.ok())).toList();

        ScenarioCluster in = ScenarioCluster.numbered(CLUSTERS.incrementAndGet());
        if (scenario.waitForPodsReady() != null) GANG.put(in.cluster(), scenario.waitForPodsReady());
        List<Check> seen = replay(in, scenario);
        assertThat(seen).as("live checks vs simulator checks of %s", file.getFileName()).isEqualTo(expected);
        assertThat(seen).as("every expectation of %s holds live", file.getFileName()).allMatch(Check::ok);
        for (WorkloadPreempted p : preempted(in)) {
            // invariant 4: a preemption names its preemptor; an eviction by node failure or quota removal has none
            if (p.reason() == null || p.reason().hasPreemptor()) {
                assertThat(p.preemptorWorkloadId()).as("preemptor of %s", p.workloadId()).isNotBlank();
                assertThat(p.preemptorWorkloadId()).as("preemptor of %s", p.workloadId()).startsWith(in.idPrefix());
            }
            assertThat(p.reason()).as("reason of %s", p.workloadId()).isNotNull();
            assertThat(p.message()).as("message of %s", p.workloadId()).isNotBlank();
        }
        // isolation: every admission of the scenario's workloads is in its cluster, and names only its own
        for (var r : live.readAll(live.admissionTopics.admitted())) {
            WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
            if (in.cluster().value().equals(a.clusterArn()) || a.workloadId().startsWith(in.idPrefix())) {
                assertThat(a.clusterArn()).as("cluster of %s", a.workloadId()).isEqualTo(in.cluster().value());
                assertThat(a.workloadId()).as("a workload admitted in %s", in.cluster()).startsWith(in.idPrefix());
            }
        }
    }

    private static List<Check> replay(ScenarioCluster in, Scenario scenario) {
        live.publishStart(scenario, in);
        live.awaitQuiet();

        List<Check> checks = new ArrayList<>();
        Instant time = Simulator.START;
        int seenPreemptions = 0;
        for (Scenario.Step step : scenario.steps()) {
            Duration by = step instanceof Scenario.Advance a ? a.by() : Duration.ofSeconds(1);
            time = time.plus(by);
            advance(live, in, CLOCK, DEADLINES, by);
            if (step instanceof Scenario.Advance) {
                continue; // the deciders are quiet: advance waited for each timer's decisions
            } else if (step instanceof Scenario.Expect e) {
                List<String> preempted = preempted(in).stream().map(p -> in.scenarioId(p.workloadId())).toList();
                Set<String> since = new TreeSet<>(preempted.subList(seenPreemptions, preempted.size()));
                seenPreemptions = preempted.size();
                AdmissionReads decider = live.admission.readsFor(in.cluster())
                        .orElseThrow(() -> new AssertionError("no decider for " + in.cluster()));
                checks.addAll(check(decider, in, e, since));
            } else {
                live.publishStep(step, time, in);
                live.awaitQuiet();
            }
        }
        return checks;
    }

    /**
     * Moves the decider's time on by {@code by}, as the simulator does: each of gang admission's timers of the
     * scenario's cluster due meanwhile is reached in time order, the deciders acting on it at its own time (and
     * quiet again) before time moves to the next.
     */
    static void advance(LiveServices live, ScenarioCluster in, VirtualClock clock, Deadlines deadlines, Duration by) {
        Instant target = clock.instant().plus(by);
        for (Optional<Instant> next = nextDeadline(live, in); next.isPresent() && !next.get().isAfter(target);
             next = nextDeadline(live, in)) {
            Instant at = next.get();
            if (at.isAfter(clock.instant())) clock.advance(Duration.between(clock.instant(), at));
            deadlines.awaitReached(in.cluster(), at);
            live.awaitQuiet();
        }
        if (target.isAfter(clock.instant())) clock.advance(Duration.between(clock.instant(), target));
    }

    private static Optional<Instant> nextDeadline(LiveServices live, ScenarioCluster in) {
        return live.admission.readsFor(in.cluster())
                .orElseThrow(() -> new AssertionError("no decider for " + in.cluster())).nextDeadline(in.cluster());
    }

    /** When the decider last acted on gang admission's timers of each cluster (committed). */
    static final class Deadlines implements AdmissionObserver {
        private final Map<ClusterArn, Instant> reached = new ConcurrentHashMap<>();

        @Override
        public void deadlinesReached(ClusterArn cluster, Instant now) {
            reached.merge(cluster, now, (a, b) -> a.isAfter(b) ? a : b);
        }

        void awaitReached(ClusterArn cluster, Instant at) {
            await().atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofMillis(20))
                    .until(() -> !reached.getOrDefault(cluster, Instant.MIN).isBefore(at));
        }

        @Override
        public void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        @Override
        public void finished(ClusterArn cluster, String team) {
        }

        @Override
        public void preemptionRequested(ClusterArn cluster, String team) {
        }

        @Override
        public void deadLettered(String topic, dev.taskgov.service.support.DeadLetterMetrics.Reason reason) {
        }

        @Override
        public void rejected(ClusterArn cluster, String team, String reason) {
        }
    }

    /** The evictions in the scenario's cluster so far, in the order of the preempted topic. */
    private static List<WorkloadPreempted> preempted(ScenarioCluster in) {
        return live.readAll(live.admissionTopics.preempted()).stream()
                .map(r -> EventCodec.read(r.value(), WorkloadPreempted.class))
                .filter(p -> in.cluster().value().equals(p.clusterArn()))
                .toList();
    }

    /** The simulator's checks, in its order, against the live admission decider's records of the scenario's cluster. */
    static List<Check> check(AdmissionReads admission, ScenarioCluster in, Scenario.Expect e, Set<String> preemptedSince) {
        List<Check> out = new ArrayList<>();
        for (String id : e.admitted()) out.add(new Check(e.index(), "admitted", id, stateIs(admission, in.liveId(id), WorkloadState.Admitted)));
        for (String id : e.pending()) out.add(new Check(e.index(), "pending", id, stateIs(admission, in.liveId(id), WorkloadState.Pending)));
        for (String id : e.finished()) out.add(new Check(e.index(), "finished", id, stateIs(admission, in.liveId(id), WorkloadState.Finished)));
        if (e.preemptedSinceLastExpect() != null) {
            out.add(new Check(e.index(), "preemptedSinceLastExpect", null,
                    new TreeSet<>(e.preemptedSinceLastExpect()).equals(preemptedSince)));
        }
        e.placements().forEach((id, podSets) -> {
            Optional<WorkloadRecord> r = admission.workload(in.liveId(id)).filter(w -> w.placement() != null);
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

    private static boolean stateIs(AdmissionReads admission, String id, WorkloadState state) {
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
