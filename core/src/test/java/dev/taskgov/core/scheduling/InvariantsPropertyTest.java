package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.preemption.RunningWorkload;
import dev.taskgov.core.preemption.Victim;
import dev.taskgov.core.resources.ResourceName;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetPlacement;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Random submit/finish sequences (seeded, so a failure replays) never break design.md's
 * invariants 1 (team usage within nominal + borrowing limit; cohort within capacity), 2 (node
 * pods within allocatable) and 4 (preemptions name preemptor and reason; a team's reclaim of its
 * own quota always succeeds once borrowers are evicted).
 */
class InvariantsPropertyTest {

    static final String G5 = "ml.g5.8xlarge";
    static final String P4 = "ml.p4d.24xlarge";
    static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));
    static final InstanceType P4_TYPE = new InstanceType(P4, Resources.of(8, 96_000, 1152 * 1024));
    static final int STEPS = 250;

    static Stream<Long> seeds() {
        return IntStream.rangeClosed(1, 60).mapToObj(i -> (long) i * 7919);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void invariantsHold(long seed) {
        Random rnd = new Random(seed);
        List<Node> nodes = new ArrayList<>();
        int g5Nodes = 6 + rnd.nextInt(12);
        int p4Nodes = 1 + rnd.nextInt(3);
        for (int i = 0; i < g5Nodes; i++) {
            nodes.add(new Node("g" + i, null, G5, Map.of(TopologyLevels.LAYER_3, "r" + i / 4), G5_TYPE.capacity(), true));
        }
        for (int i = 0; i < p4Nodes; i++) {
            nodes.add(new Node("p" + i, null, P4, Map.of(TopologyLevels.LAYER_3, "pr" + i / 2), P4_TYPE.capacity(), true));
        }
        VirtualClock clock = new VirtualClock(Instant.parse("2026-11-30T10:00:00Z"));
        Scheduler s = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE, P4_TYPE), nodes);
        Map<String, Integer> classes = new LinkedHashMap<>(Map.of("high", 90, "mid", 50, "low", 10));
        s.applySchedulerConfig(new SchedulerConfig(classes, rnd.nextBoolean()));
        int teams = 2 + rnd.nextInt(3);
        int g5Left = g5Nodes;
        int p4Left = p4Nodes * 8;
        List<String> teamNames = new ArrayList<>();
        for (int t = 0; t < teams; t++) {
            int g = t == teams - 1 ? g5Left : rnd.nextInt(g5Left + 1);
            int p = t == teams - 1 ? p4Left : rnd.nextInt(p4Left + 1);
            g5Left -= g;
            p4Left -= p;
            String name = "t" + t;
            teamNames.add(name);
            // quotas as whole GPUs with the instance's vCPU/memory ratio (seed 002)
            Map<String, Resources> nominal = Map.of(G5, G5_TYPE.capacity().times(g),
                    P4, Resources.of(p, 96_000L * p / 8, 1152L * 1024 * p / 8));
            s.applyQuota(new TeamQuota(name, name, nominal, SharingStrategy.values()[rnd.nextInt(3)],
                    new int[]{0, 50, 100, 300}[rnd.nextInt(4)], rnd.nextInt(4) == 0 ? PreemptTeamTasks.Never : PreemptTeamTasks.LowerPriority,
                    new int[]{0, 50, 75, 100}[rnd.nextInt(4)], true));
        }
        List<String> ids = new ArrayList<>();
        for (int step = 0; step < STEPS; step++) {
            clock.advance(Duration.ofSeconds(1));
            if (ids.isEmpty() || rnd.nextInt(10) < 6) {
                String id = "w" + step;
                String team = teamNames.get(rnd.nextInt(teams));
                String cls = List.of("high", "mid", "low").get(rnd.nextInt(3));
                boolean p4 = rnd.nextInt(4) == 0;
                PodSetRequest ps = p4
                        ? new PodSetRequest("worker", 1 + rnd.nextInt(8), P4, Resources.of(1, 12_000, 144 * 1024), null)
                        : new PodSetRequest("worker", 1 + rnd.nextInt(4), G5, Resources.of(1, 4_000, 16 * 1024), null);
                s.submit(new Workload(id, team, cls, classes.get(cls), clock.instant(), List.of(ps)));
                ids.add(id);
            } else {
                s.finish(ids.remove(rnd.nextInt(ids.size())));
            }
            List<Decision> decisions = s.cycle();
            checkPreemptions(decisions);
            checkQuotaInvariant(s, nodes);
            checkNodeInvariant(s, nodes);
            checkReclaimAlwaysSucceeds(s);
        }
    }

    private static void checkPreemptions(List<Decision> decisions) {
        for (int i = 0; i < decisions.size(); i++) {
            if (decisions.get(i) instanceof Decision.Preempt p) {
                assertThat(p.plan().preemptorId()).isNotBlank();
                assertThat(p.plan().victims()).isNotEmpty().allSatisfy((Victim v) -> {
                    assertThat(v.reason()).isNotNull();
                    assertThat(v.message()).isNotBlank();
                });
                // in-process: the preemptor is admitted right after its preemption
                assertThat(decisions.get(i + 1)).isInstanceOfSatisfying(Decision.Admit.class,
                        a -> assertThat(a.workloadId()).isEqualTo(p.plan().preemptorId()));
            }
        }
    }

    private static void checkQuotaInvariant(Scheduler s, List<Node> nodes) {
        Map<String, Resources> cohort = new HashMap<>();
        for (TeamQuota q : s.ledger().quotas()) {
            Map<String, Resources> sum = new HashMap<>();
            for (RunningWorkload r : s.running(q.team())) {
                r.requests().forEach((t, amount) -> sum.merge(t, amount, Resources::plus));
            }
            for (String type : List.of(G5, P4)) {
                Resources used = sum.getOrDefault(type, Resources.ZERO);
                assertThat(s.ledger().usage(q.team(), type)).as("ledger usage of " + q.team()).isEqualTo(used);
                assertThat(used.fitsIn(q.ceiling(type))).as(q.team() + " uses " + used + " of " + type + " within "
                        + q.ceiling(type)).isTrue();
                cohort.merge(type, used, Resources::plus);
            }
        }
        Map<String, Resources> capacity = dev.taskgov.core.model.ComputeQuotas.clusterCapacity(nodes);
        cohort.forEach((type, used) -> assertThat(used.fitsIn(capacity.get(type))).as("cohort " + type).isTrue());
    }

    private static void checkNodeInvariant(Scheduler s, List<Node> nodes) {
        Map<String, Resources> held = new HashMap<>();
        for (WorkloadView v : s.workloads()) {
            if (v.state() != WorkloadState.Admitted) continue;
            Workload w = s.running(v.team()).stream().filter(r -> r.id().equals(v.workloadId())).findFirst().orElseThrow().workload();
            for (int i = 0; i < w.podSets().size(); i++) {
                PodSetPlacement p = v.placement().podSets().get(i);
                Resources perPod = w.podSets().get(i).perPod();
                p.podsPerNode().forEach((node, count) -> held.merge(node, perPod.times(count), Resources::plus));
                assertThat(p.podCount()).isEqualTo(w.podSets().get(i).count());
            }
        }
        for (Node n : nodes) {
            Resources h = held.getOrDefault(n.name(), Resources.ZERO);
            assertThat(h.fitsIn(n.allocatable())).as("node " + n.name() + " holds " + h).isTrue();
        }
    }

    /** No pending workload of an active team stays pending while it fits within its team's nominal quota. */
    private static void checkReclaimAlwaysSucceeds(Scheduler s) {
        for (WorkloadView v : s.workloads()) {
            if (v.state() != WorkloadState.Pending) continue;
            Workload w = pendingWorkload(s, v);
            boolean within = s.ledger().withinNominal(v.team(), w.requestsByInstanceType());
            assertThat(within).as(v.workloadId() + " of " + v.team() + " is within its nominal quota but pending: "
                    + v.reason() + " " + v.message()).isFalse();
        }
    }

    private static Workload pendingWorkload(Scheduler s, WorkloadView v) {
        return s.queue(v.team()).stream().filter(q -> q.workloadId().equals(v.workloadId())).findFirst()
                .map(q -> s.pendingWorkload(q.workloadId())).orElseThrow();
    }

    static {
        // ResourceName is referenced so that a new resource added to the enum is noticed here.
        assert ResourceName.values().length == 3;
    }
}
