package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.Placement;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Scheduler#restoreAdmitted}: a decider that takes over rebuilds its scheduler from the
 * admitted workloads (in admission order, with their placements) and the pending ones, and must
 * decide exactly as the scheduler it replaces from then on.
 */
class RestoreAdmittedTest {

    static final String G5 = "ml.g5.8xlarge";
    static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));
    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    // ------------------------------------------------------------ rebuilt mid-run, decides the same

    record Run(String name, long seed, boolean fairShare) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Run> runs() {
        List<Run> out = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            out.add(new Run("FCFS, seed " + i * 7_907L, i * 7_907L, false));
            out.add(new Run("fair share, seed " + i * 7_907L, i * 7_907L, true));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("runs")
    void aRebuiltSchedulerDecidesAsTheOriginal(Run run) {
        Random rnd = new Random(run.seed());
        VirtualClock clock = new VirtualClock(T0);
        List<Node> nodes = nodes(12);
        SchedulerConfig config = new SchedulerConfig(new LinkedHashMap<>(Map.of("high", 90, "low", 10)), run.fairShare());
        List<TeamQuota> quotas = List.of(
                quota("a", 5, SharingStrategy.LendAndBorrow, 100), quota("b", 4, SharingStrategy.LendAndBorrow, 50),
                quota("c", 3, SharingStrategy.Lend, 0));
        Scheduler original = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE), nodes);
        original.applySchedulerConfig(config);
        quotas.forEach(original::applyQuota);
        List<String> ids = new ArrayList<>();
        for (int step = 0; step < 60; step++) randomStep(rnd, clock, step, ids, config).accept(original);

        // The takeover: everything the changelog holds, nothing else.
        Scheduler rebuilt = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE), nodes);
        rebuilt.applySchedulerConfig(config);
        quotas.forEach(rebuilt::applyQuota);
        List<WorkloadView> admitted = original.workloads().stream().filter(v -> v.state() == WorkloadState.Admitted)
                .sorted(Comparator.comparing(WorkloadView::admittedAt).thenComparing(v -> seqOf(original, v))).toList();
        for (WorkloadView v : admitted) {
            Workload w = original.running(v.team()).stream().filter(r -> r.id().equals(v.workloadId())).findFirst().orElseThrow().workload();
            assertThat(rebuilt.restoreAdmitted(w, v.placement(), v.borrowed(), v.admittedAt()).outcome()).isEqualTo(ChangeResult.Outcome.Restored);
        }
        for (String team : List.of("a", "b", "c")) {
            original.queue(team).forEach(v -> rebuilt.submit(original.pendingWorkload(v.workloadId())));
        }
        List<Decision> settle = rebuilt.cycle();
        assertThat(settle).as("the rebuilt scheduler only explains its queue again").allMatch(d -> d instanceof Decision.StayPending);
        assertThat(rebuilt.ledger().quotas()).containsExactlyElementsOf(original.ledger().quotas());
        for (String team : List.of("a", "b", "c")) {
            assertThat(rebuilt.ledger().usage(team, G5)).as("usage of " + team).isEqualTo(original.ledger().usage(team, G5));
        }

        for (int step = 60; step < 160; step++) {
            Consumer<Scheduler> s = randomStep(rnd, clock, step, ids, config);
            s.accept(original);
            s.accept(rebuilt);
            assertThat(actions(rebuilt.cycle())).as("step " + step).isEqualTo(actions(original.cycle()));
            assertThat(states(rebuilt)).as("step " + step).isEqualTo(states(original));
        }
    }

    /** Decision order within one admission time breaks ties between restored workloads admitted at the same instant. */
    private static long seqOf(Scheduler s, WorkloadView v) {
        return s.running(v.team()).stream().filter(r -> r.id().equals(v.workloadId())).findFirst().orElseThrow().admissionSeq();
    }

    /** Submit (alike shapes, some with a required rack) or finish; no cycle. */
    private static Consumer<Scheduler> randomStep(Random rnd, VirtualClock clock, int step, List<String> ids, SchedulerConfig config) {
        clock.advance(Duration.ofSeconds(1));
        if (ids.isEmpty() || rnd.nextInt(10) < 6) {
            String id = "w" + step;
            ids.add(id);
            String cls = rnd.nextBoolean() ? "high" : "low";
            String team = List.of("a", "b", "c").get(rnd.nextInt(3));
            TopologyRequest topo = rnd.nextInt(4) == 0 ? TopologyRequest.required(TopologyLevels.LAYER_3) : TopologyRequest.NONE;
            Workload w = new Workload(id, team, cls, config.priorityClasses().get(cls), clock.instant(),
                    List.of(new PodSetRequest("worker", 1 + rnd.nextInt(3), G5, Resources.of(1, 8_000, 32 * 1024), topo)));
            return s -> {
                s.submit(w);
                s.cycle();
            };
        }
        String id = ids.remove(rnd.nextInt(ids.size()));
        return s -> {
            s.finish(id);
            s.cycle();
        };
    }

    /** Admissions and preemptions (pending explanations differ only in wording after a takeover). */
    private static List<Decision> actions(List<Decision> decisions) {
        return decisions.stream().filter(d -> d instanceof Decision.Admit || d instanceof Decision.Preempt).toList();
    }

    /** Admitted and pending workloads (the rebuilt scheduler never knew those that finished before it). */
    private static Map<String, String> states(Scheduler s) {
        Map<String, String> out = new TreeMap<>();
        for (WorkloadView v : s.workloads()) {
            if (v.state() != WorkloadState.Admitted && v.state() != WorkloadState.Pending) continue;
            out.put(v.workloadId(), v.state() + " " + v.placement() + " " + v.borrowed() + " " + v.admittedAt());
        }
        return out;
    }

    // ------------------------------------------------------------ named cases

    /** {@code restore} returns what its last call said. */
    record Case(String name, java.util.function.Function<Scheduler, ChangeResult> restore, String workloadId, ChangeResult.Outcome outcome,
                Map<String, Resources> usageOfA, String pendingReasonOfProbe) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Workload gpus(String id, String team, int pods) {
        return new Workload(id, team, "low", 10, T0, List.of(new PodSetRequest("worker", pods, G5, Resources.of(1, 8_000, 32 * 1024), null)));
    }

    static Placement on(String... nodes) {
        TreeMap<String, Integer> perNode = new TreeMap<>();
        for (String n : nodes) perNode.merge(n, 1, Integer::sum);
        return new Placement(List.of(new PodSetPlacement("worker", G5, null, perNode)));
    }

    static Stream<Case> cases() {
        return Stream.of(
                new Case("a restored workload holds its quota and its nodes", s -> s.restoreAdmitted(gpus("r", "a", 4), on("n0", "n1", "n2", "n3"), Map.of(), T0),
                        "r", ChangeResult.Outcome.Restored, Map.of(G5, Resources.of(4, 32_000, 128 * 1024)), "QuotaExceeded"),
                new Case("restoring a known id changes nothing", s -> {
                    s.restoreAdmitted(gpus("r", "a", 2), on("n0", "n1"), Map.of(), T0);
                    return s.restoreAdmitted(gpus("r", "a", 4), on("n0", "n1", "n2", "n3"), Map.of(), T0);
                }, "r", ChangeResult.Outcome.Unchanged, Map.of(G5, Resources.of(2, 16_000, 64 * 1024)), null),
                new Case("a node gone since the admission is skipped; the quota is still held", s -> s.restoreAdmitted(gpus("r", "a", 2),
                        on("n0", "gone"), Map.of(), T0), "r", ChangeResult.Outcome.Restored, Map.of(G5, Resources.of(2, 16_000, 64 * 1024)), null),
                new Case("a workload over a quota that shrank since stays admitted", s -> s.restoreAdmitted(gpus("r", "a", 6),
                        on("n0", "n1", "n2", "n3", "n4", "n5"), Map.of(G5, Resources.of(2, 16_000, 64 * 1024)), T0), "r", ChangeResult.Outcome.Restored,
                        Map.of(G5, Resources.of(6, 48_000, 192 * 1024)), "BorrowLimitExceeded")
        );
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void restore(Case c) {
        Scheduler s = new Scheduler(new VirtualClock(T0), Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE), nodes(6));
        s.applyQuota(quota("a", 4, SharingStrategy.LendAndBorrow, 50));
        assertThat(c.restore().apply(s).outcome()).isEqualTo(c.outcome());
        WorkloadView v = s.workload(c.workloadId()).orElseThrow();
        assertThat(v.state()).isEqualTo(WorkloadState.Admitted);
        assertThat(s.ledger().usage("a", G5)).isEqualTo(c.usageOfA().get(G5));
        // each pod asks for 1 accelerator, 8 vCPU, 32 GiB: what is left on the placement's known nodes
        v.placement().podSets().get(0).podsPerNode().forEach((node, pods) -> {
            if (!node.equals("gone")) {
                assertThat(s.topology().free(node)).as(node).isEqualTo(G5_TYPE.capacity().minus(Resources.of(1, 8_000, 32 * 1024).times(pods)));
            }
        });
        if (c.pendingReasonOfProbe() != null) {
            s.submit(gpus("probe", "a", 1));
            s.cycle();
            assertThat(s.workload("probe").orElseThrow().reason()).isEqualTo(c.pendingReasonOfProbe());
        }
    }

    static List<Node> nodes(int n) {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(new Node("n" + i, null, G5, Map.of(TopologyLevels.LAYER_3, "r" + i / 4), G5_TYPE.capacity(), true));
        }
        return out;
    }

    static TeamQuota quota(String team, int gpus, SharingStrategy strategy, int borrowLimit) {
        return new TeamQuota(team, team, Map.of(G5, G5_TYPE.capacity().times(gpus)), strategy, borrowLimit,
                PreemptTeamTasks.LowerPriority, 50, true);
    }
}
