package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.ComputeQuotas;
import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptionReason;
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
import dev.taskgov.core.topology.TopologyRequest;
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
 * Random submit/finish sequences (seeded, so a failure replays), also with nodes failing and
 * returning and quotas and priority classes edited between submissions, never break docs/semantics.md's "Invariants":
 * invariants 1 (team usage within nominal + borrowing limit, or what it kept after its quota
 * shrank; cohort within the ready capacity), 2 (node pods within allocatable, none on a failed
 * node), 3 (admitted at most once per submission; every workload admitted, pending with a reason,
 * rejected or finished) and 4 (preemptions name preemptor and reason, evictions without one their
 * reason; a team's reclaim of its own quota always succeeds once borrowers are evicted, checked
 * while every node is ready).
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
        new Run(seed, false).play();
    }

    /**
     * The same with the cluster changing between submissions: nodes fail, leave, come back and
     * join, quotas are edited (within the ready capacity, as quota-service allows), disabled,
     * enabled, deleted and created again, and priority classes change weight or disappear.
     */
    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void invariantsHoldWhileTheClusterChanges(long seed) {
        new Run(seed, true).play();
    }

    /** One random run; the checks after each step are the invariants. */
    private static final class Run {
        final Random rnd;
        final boolean changes;
        final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-30T10:00:00Z"));
        final Map<String, Node> original = new LinkedHashMap<>();
        final Scheduler s;
        final Map<String, Integer> classes = new LinkedHashMap<>(Map.of("high", 90, "mid", 50, "low", 10));
        final boolean fairShare;
        final List<String> teamNames = new ArrayList<>();
        /** Per team, usage right after its quota last changed, then the lowest since: what it may keep above a shrunk ceiling. */
        final Map<String, Map<String, Resources>> lowWater = new HashMap<>();
        /** Admitted workloads as the decisions tell it (invariant 3: admitted at most once per submission). */
        final java.util.Set<String> admitted = new java.util.HashSet<>();
        final List<String> ids = new ArrayList<>();

        Run(long seed, boolean changes) {
            this.rnd = new Random(seed);
            this.changes = changes;
            int g5Nodes = 6 + rnd.nextInt(12);
            int p4Nodes = 1 + rnd.nextInt(3);
            for (int i = 0; i < g5Nodes; i++) {
                original.put("g" + i, new Node("g" + i, null, G5, Map.of(TopologyLevels.LAYER_3, "r" + i / 4), G5_TYPE.capacity(), true));
            }
            for (int i = 0; i < p4Nodes; i++) {
                original.put("p" + i, new Node("p" + i, null, P4, Map.of(TopologyLevels.LAYER_3, "pr" + i / 2), P4_TYPE.capacity(), true));
            }
            s = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE, P4_TYPE), original.values());
            fairShare = rnd.nextBoolean();
            s.applySchedulerConfig(new SchedulerConfig(classes, fairShare));
            int teams = 2 + rnd.nextInt(3);
            int g5Left = g5Nodes;
            int p4Left = p4Nodes * 8;
            for (int t = 0; t < teams; t++) {
                int g = t == teams - 1 ? g5Left : rnd.nextInt(g5Left + 1);
                int p = t == teams - 1 ? p4Left : rnd.nextInt(p4Left + 1);
                g5Left -= g;
                p4Left -= p;
                String name = "t" + t;
                teamNames.add(name);
                setQuota(randomQuota(name, g, p, true));
            }
        }

        // quotas as whole GPUs with the instance's vCPU/memory ratio (seed 002)
        TeamQuota randomQuota(String name, int g5Gpus, int p4Gpus, boolean active) {
            Map<String, Resources> nominal = Map.of(G5, G5_TYPE.capacity().times(g5Gpus),
                    P4, Resources.of(p4Gpus, 96_000L * p4Gpus / 8, 1152L * 1024 * p4Gpus / 8));
            return new TeamQuota(name, name, nominal, SharingStrategy.values()[rnd.nextInt(3)],
                    new int[]{0, 50, 100, 300}[rnd.nextInt(4)], rnd.nextInt(4) == 0 ? PreemptTeamTasks.Never : PreemptTeamTasks.LowerPriority,
                    new int[]{0, 50, 75, 100}[rnd.nextInt(4)], active);
        }

        void setQuota(TeamQuota q) {
            s.applyQuota(q);
            lowWater.put(q.team(), new HashMap<>(s.ledger().usage(q.team())));
        }

        void play() {
            for (int step = 0; step < STEPS; step++) {
                clock.advance(Duration.ofSeconds(1));
                int roll = rnd.nextInt(20);
                if (changes && roll < 2) changeNode();
                else if (changes && roll < 4) changeQuota();
                else if (changes && roll < 5) changeClasses();
                else if (ids.isEmpty() || roll < 16) submit(step);
                else {
                    String id = ids.remove(rnd.nextInt(ids.size()));
                    s.finish(id);
                    admitted.remove(id);
                }
                List<Decision> decisions = s.cycle();
                checkDecisions(decisions);
                checkQuotaInvariant();
                checkNodeInvariant();
                checkStates();
                if (allNodesReady()) checkReclaimAlwaysSucceeds(s);
            }
        }

        void submit(int step) {
            String team = teamNames.get(rnd.nextInt(teamNames.size()));
            if (s.ledger().quota(team) == null) return; // a submission of a team without quota is Rejected by validation
            String id = "w" + step;
            String cls = List.of("high", "mid", "low").get(rnd.nextInt(3));
            boolean p4 = rnd.nextInt(4) == 0;
            TopologyRequest topo = !changes ? null : switch (rnd.nextInt(4)) {
                case 0 -> TopologyRequest.required(TopologyLevels.LAYER_3);
                case 1 -> TopologyRequest.preferred(TopologyLevels.LAYER_3);
                default -> null;
            };
            PodSetRequest ps = p4
                    ? new PodSetRequest("worker", 1 + rnd.nextInt(8), P4, Resources.of(1, 12_000, 144 * 1024), topo)
                    : new PodSetRequest("worker", 1 + rnd.nextInt(4), G5, Resources.of(1, 4_000, 16 * 1024), topo);
            int priority = classes.containsKey(cls) ? classes.get(cls) : s.config().defaultPriority();
            s.submit(new Workload(id, team, classes.containsKey(cls) ? cls : null, priority, clock.instant(), List.of(ps)));
            ids.add(id);
        }

        void changeNode() {
            String name = List.copyOf(original.keySet()).get(rnd.nextInt(original.size()));
            Node now = s.topology().nodes().stream().filter(n -> n.name().equals(name)).findFirst().orElse(null);
            Node o = original.get(name);
            if (now == null || !now.ready()) {
                s.upsertNode(o); // back, or joins again
            } else if (rnd.nextBoolean()) {
                s.upsertNode(new Node(o.name(), o.instanceId(), o.instanceType(), o.labels(), o.allocatable(), false));
            } else {
                s.removeNode(name);
            }
        }

        void changeQuota() {
            String team = teamNames.get(rnd.nextInt(teamNames.size()));
            TeamQuota q = s.ledger().quota(team);
            int roll = rnd.nextInt(6);
            if (q != null && roll == 0) {
                s.removeQuota(team);
                lowWater.remove(team);
            } else if (q != null && roll == 1) {
                setQuota(q.withActive(!q.active()));
                if (!ComputeQuotas.checkCapacity(s.ledger().quotas(), capacity()).isEmpty()) setQuota(q.withActive(false));
            } else {
                // a create or update within what the ready nodes leave after the other active quotas (quota-service's rule)
                Map<String, Resources> cap = capacity();
                long g5Room = cap.getOrDefault(G5, Resources.ZERO).get(ResourceName.ACCELERATORS);
                long p4Room = cap.getOrDefault(P4, Resources.ZERO).get(ResourceName.ACCELERATORS);
                for (TeamQuota other : s.ledger().quotas()) {
                    if (other.team().equals(team) || !other.active()) continue;
                    g5Room -= other.nominal(G5).get(ResourceName.ACCELERATORS);
                    p4Room -= other.nominal(P4).get(ResourceName.ACCELERATORS);
                }
                if (g5Room < 0 || p4Room < 0) return;
                setQuota(randomQuota(team, rnd.nextInt((int) g5Room + 1), rnd.nextInt((int) p4Room + 1), true));
            }
        }

        void changeClasses() {
            classes.clear();
            for (String c : List.of("high", "mid", "low")) {
                if (rnd.nextInt(5) > 0) classes.put(c, rnd.nextInt(101));
            }
            s.applySchedulerConfig(new SchedulerConfig(new LinkedHashMap<>(classes), fairShare));
        }

        Map<String, Resources> capacity() {
            return ComputeQuotas.clusterCapacity(s.topology().nodes());
        }

        boolean allNodesReady() {
            List<Node> now = s.topology().nodes();
            return now.size() == original.size() && now.stream().allMatch(Node::ready);
        }

        /** Invariants 3 and 4 as the decisions tell them. */
        void checkDecisions(List<Decision> decisions) {
            checkPreemptions(decisions);
            for (Decision d : decisions) {
                if (d instanceof Decision.Admit a && a.nodeReplaced()) {
                    assertThat(admitted).as("replaced " + a.workloadId() + " runs").contains(a.workloadId());
                } else if (d instanceof Decision.Admit a) {
                    assertThat(admitted.add(a.workloadId())).as(a.workloadId() + " admitted twice").isTrue();
                } else if (d instanceof Decision.Evict e) {
                    assertThat(e.victim().reason()).isIn(PreemptionReason.NodeFailure, PreemptionReason.QuotaRemoved);
                    assertThat(e.victim().message()).isNotBlank();
                    assertThat(e.toEvent().preemptorWorkloadId()).isNull();
                    assertThat(admitted.remove(e.workloadId())).as("evicted " + e.workloadId() + " ran").isTrue();
                } else if (d instanceof Decision.Preempt p) {
                    p.plan().victims().forEach(v -> assertThat(admitted.remove(v.workloadId())).as("victim " + v.workloadId() + " ran").isTrue());
                }
            }
        }

        /** Invariant 3: the decisions account for every admitted workload; every other one has a state with a reason. */
        void checkStates() {
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (WorkloadView v : s.workloads()) {
                if (v.state() == WorkloadState.Admitted) seen.add(v.workloadId());
                if (v.state() == WorkloadState.Pending) assertThat(v.reason()).as(v.workloadId() + " pending without reason").isNotBlank();
            }
            assertThat(seen).isEqualTo(admitted);
        }

        /**
         * Invariant 1. A quota edit never evicts, so a team may keep running work above a shrunk
         * ceiling; it may never grow above the larger of its ceiling and what it kept.
         */
        void checkQuotaInvariant() {
            Map<String, Resources> cohort = new HashMap<>();
            for (String team : teamNames) {
                TeamQuota q = s.ledger().quota(team);
                Map<String, Resources> sum = new HashMap<>();
                for (RunningWorkload r : s.running(team)) {
                    r.requests().forEach((t, amount) -> sum.merge(t, amount, Resources::plus));
                }
                if (q == null || !q.active()) {
                    assertThat(sum).as(team + " runs work without an active quota").isEmpty();
                    continue;
                }
                Map<String, Resources> low = lowWater.get(team);
                for (String type : List.of(G5, P4)) {
                    Resources used = sum.getOrDefault(type, Resources.ZERO);
                    assertThat(s.ledger().usage(team, type)).as("ledger usage of " + team).isEqualTo(used);
                    Resources kept = low.getOrDefault(type, Resources.ZERO).min(used);
                    low.put(type, kept);
                    assertThat(used.fitsIn(q.ceiling(type).max(kept))).as(team + " uses " + used + " of " + type + " within "
                            + q.ceiling(type) + " or the " + kept + " it kept").isTrue();
                    cohort.merge(type, used, Resources::plus);
                }
            }
            Map<String, Resources> capacity = capacity();
            cohort.forEach((type, used) -> assertThat(used.fitsIn(capacity.getOrDefault(type, Resources.ZERO))).as("cohort " + type).isTrue());
        }

        /** Invariant 2, and no pod on a node that is not ready or gone. */
        void checkNodeInvariant() {
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
            Map<String, Node> now = new HashMap<>();
            s.topology().nodes().forEach(n -> now.put(n.name(), n));
            held.forEach((name, h) -> {
                Node n = now.get(name);
                assertThat(n != null && n.ready()).as("pods on node " + name + " which is gone or not ready").isTrue();
                assertThat(h.fitsIn(n.allocatable())).as("node " + name + " holds " + h).isTrue();
            });
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

    /** No pending workload of an active team stays pending while it fits within its team's nominal quota (and needs no one rack). */
    private static void checkReclaimAlwaysSucceeds(Scheduler s) {
        for (WorkloadView v : s.workloads()) {
            if (v.state() != WorkloadState.Pending) continue;
            TeamQuota q = s.ledger().quota(v.team());
            if (q == null || !q.active()) continue; // waits for its quota (NoQuota)
            Workload w = pendingWorkload(s, v);
            // a pod set that requires one rack may not fit any rack however much is evicted
            if (w.podSets().stream().anyMatch(p -> p.topology().mode() == TopologyRequest.Mode.REQUIRED)) continue;
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
