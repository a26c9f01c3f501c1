package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.sim.VirtualClock;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.PodSetRequest;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.core.topology.TopologyRequest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A blocked or fitting verdict is reused while what it read is unchanged (ParkedVerdicts' stamp): the base state
 * (quotas, nodes, config), and the usage of each instance type the workload asks for; with FairShare on, the whole
 * state. Each case sets up workloads on a cluster of two instance types, makes one change and runs a cycle, on a
 * scheduler that reuses verdicts and on one that evaluates every workload on its own: both must decide alike
 * ({@link SameDecisions}: the same decisions, changes of figures alone left to reads, and the same workloads), and the
 * watched workload's verdict must change exactly when the case says (the cases where a reused verdict would be wrong),
 * with the evaluations the reuse leaves to make.
 */
class VerdictStampTest {

    static final String G5 = "ml.g5.8xlarge";
    static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));
    static final String P5 = "ml.p5.48xlarge";
    static final InstanceType P5_TYPE = new InstanceType(P5, Resources.of(8, 192_000, 2048 * 1024));

    /**
     * @param verdictChanges whether the watched workload's state, reason or message after the change differs from before
     *                       (a workload the change submits: it always does)
     * @param evaluations    the evaluations the reusing scheduler makes in the change's cycle
     * @param rechecks       the verdicts still short of quota it only takes new figures for in that cycle
     */
    record Case(String name, Setup setup, Consumer<Setup> change, String watched, boolean verdictChanges, long evaluations,
                long rechecks) {
        Case(String name, Setup setup, Consumer<Setup> change, String watched, boolean verdictChanges, long evaluations) {
            this(name, setup, change, watched, verdictChanges, evaluations, 0);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Four 1-GPU g5 nodes and two 8-GPU p5 nodes; teams a, b, c (LendAndBorrow, BorrowLimit 100%, no in-team preemption). */
    static final class Setup {
        final VirtualClock clock = new VirtualClock(Instant.parse("2026-11-30T10:00:00Z"));
        final Scheduler reusing;
        final Scheduler reference;
        final List<Consumer<Scheduler>> steps = new ArrayList<>();
        private final boolean fairShare;
        private final Map<String, int[]> gpus; // team -> {g5, p5} nominal accelerators
        private final PreemptTeamTasks preemptTeamTasks;

        Setup(boolean fairShare, Map<String, int[]> gpus, PreemptTeamTasks preemptTeamTasks) {
            this.fairShare = fairShare;
            this.gpus = gpus;
            this.preemptTeamTasks = preemptTeamTasks;
            List<Node> nodes = new ArrayList<>();
            for (int i = 0; i < 4; i++) nodes.add(node("g" + i, G5_TYPE));
            for (int i = 0; i < 2; i++) nodes.add(node("p" + i, P5_TYPE));
            reusing = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE, P5_TYPE), nodes, true);
            reference = new Scheduler(clock, Scheduler.Mode.IN_PROCESS, List.of(G5_TYPE, P5_TYPE), nodes, false);
            steps.add(s -> {
                s.applySchedulerConfig(new SchedulerConfig(Map.of("normal", 10, "low", 5), fairShare));
                gpus.forEach((team, g) -> s.applyQuota(quota(team, g[0], g[1], preemptTeamTasks)));
            });
        }

        static Setup fcfs(Map<String, int[]> gpus) {
            return new Setup(false, gpus, PreemptTeamTasks.Never);
        }

        /** FCFS, and every team may preempt its own lower-priority workloads. */
        static Setup fcfsPreemptingOwn(Map<String, int[]> gpus) {
            return new Setup(false, gpus, PreemptTeamTasks.LowerPriority);
        }

        static Setup fairShare(Map<String, int[]> gpus) {
            return new Setup(true, gpus, PreemptTeamTasks.Never);
        }

        private static Node node(String name, InstanceType type) {
            return new Node(name, null, type.name(), Map.of(TopologyLevels.LAYER_3, "r-" + name.charAt(0)), type.capacity(), true);
        }

        static TeamQuota quota(String team, int g5, int p5) {
            return quota(team, g5, p5, PreemptTeamTasks.Never);
        }

        static TeamQuota quota(String team, int g5, int p5, PreemptTeamTasks preemptTeamTasks) {
            return new TeamQuota(team, team, Map.of(G5, G5_TYPE.capacity().times(g5), P5, P5_TYPE.capacity().times(p5 / 8)),
                    SharingStrategy.LendAndBorrow, 100, preemptTeamTasks, 1, true);
        }

        /** A workload of {@code g5Pods} one-GPU g5 pods and {@code p5Pods} eight-GPU p5 pods (either may be 0). */
        Setup submit(String id, String team, int g5Pods, int p5Pods) {
            steps.add(s -> s.submit(workload(id, team, g5Pods, p5Pods)));
            return this;
        }

        /** The same, of priority class "low". */
        Setup submitLow(String id, String team, int g5Pods, int p5Pods) {
            Workload w = workload(id, team, g5Pods, p5Pods);
            steps.add(s -> s.submit(new Workload(w.id(), w.team(), "low", 5, w.submittedAt(), w.podSets())));
            return this;
        }

        Workload workload(String id, String team, int g5Pods, int p5Pods) {
            List<PodSetRequest> podSets = new ArrayList<>();
            if (g5Pods > 0) podSets.add(new PodSetRequest("worker", g5Pods, G5, G5_TYPE.capacity(), TopologyRequest.NONE));
            if (p5Pods > 0) podSets.add(new PodSetRequest("trainer", p5Pods, P5, P5_TYPE.capacity(), TopologyRequest.NONE));
            return new Workload(id, team, "normal", 10, clock.instant(), podSets);
        }

        /** Every step so far, on both schedulers, with a cycle after each. */
        void replay() {
            for (Consumer<Scheduler> step : steps) {
                clock.advance(Duration.ofSeconds(1));
                step.accept(reusing);
                step.accept(reference);
                cycleAlike();
            }
            steps.clear();
        }

        void cycleAlike() {
            SameDecisions.cycleAlike(reusing, reference, "cycle");
        }

        void both(Consumer<Scheduler> change) {
            clock.advance(Duration.ofSeconds(1));
            change.accept(reusing);
            change.accept(reference);
        }

        @Override
        public String toString() {
            return (fairShare ? "fair share " : "") + gpus.keySet();
        }
    }

    private static Map<String, int[]> gpus(int aG5, int aP5, int bG5, int bP5, int cG5, int cP5) {
        return Map.of("a", new int[]{aG5, aP5}, "b", new int[]{bG5, bP5}, "c", new int[]{cG5, cP5});
    }

    static Stream<Case> cases() {
        // a-big asks for 3 g5 GPUs against a ceiling of 2 (nominal 1 + borrowing 1): blocked, Inadmissible, whatever the usage
        Map<String, int[]> inadmissible = gpus(1, 8, 2, 8, 1, 0);
        // a-big asks for 2 g5 GPUs; c holds 2 and b 1, all within nominal: the cohort has 1 idle, no one to reclaim from
        Map<String, int[]> poolFull = gpus(1, 8, 1, 0, 2, 8);
        // a-big asks for 3 g5 GPUs (a's ceiling 4) while every g5 node is taken: a-low, c-1, c-2 (c borrowing), b-1
        Map<String, int[]> aWide = gpus(2, 8, 1, 0, 1, 8);
        // p5: b's nominal covers both p5 nodes, so a-mix's p5 pod finds no node while b holds them, and b borrows nothing
        Map<String, int[]> p5Held = gpus(1, 8, 1, 16, 2, 0);
        return Stream.of(
                new Case("an admission on the other instance type leaves the blocked verdict standing",
                        Setup.fcfs(inadmissible).submit("b-1", "b", 2, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> x.submit(s.workload("b-p5", "b", 0, 1))), "a-big", false, 1),
                new Case("with FairShare on, an admission on the other instance type changes the shares: evaluated again",
                        Setup.fairShare(inadmissible).submit("b-1", "b", 2, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> x.submit(s.workload("b-p5", "b", 0, 1))), "a-big", false, 2),
                new Case("an admission on its instance type changes the cohort's idle amount and holders in the message: "
                        + "still short of quota, it takes them without a new search",
                        Setup.fcfs(poolFull).submit("c-1", "c", 2, 0).submit("b-1", "b", 1, 0).submit("a-big", "a", 2, 0),
                        s -> s.both(x -> x.submit(s.workload("c-2", "c", 1, 0))), "a-big", true, 1, 1),
                new Case("with FairShare on, an admission on its instance type: evaluated again, a share reads every team",
                        Setup.fairShare(poolFull).submit("c-1", "c", 2, 0).submit("b-1", "b", 1, 0).submit("a-big", "a", 2, 0),
                        s -> s.both(x -> x.submit(s.workload("c-2", "c", 1, 0))), "a-big", true, 2, 0),
                new Case("an admission of its own team on its instance type: evaluated again, its team's work is what a search reads",
                        Setup.fcfs(poolFull).submit("c-1", "c", 2, 0).submit("b-1", "b", 1, 0).submit("a-big", "a", 2, 0),
                        s -> s.both(x -> x.submit(s.workload("a-1", "a", 1, 0))), "a-big", true, 2, 0),
                new Case("a finish of another team's work on its instance type leaves it short of quota: it takes the new "
                        + "figures without a search (the pool is emptier, and the quota check and the search's bound still fail)",
                        Setup.fcfs(aWide).submit("a-1", "a", 1, 0).submit("c-1", "c", 1, 0).submit("c-2", "c", 1, 0)
                                .submit("b-1", "b", 1, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> x.finish("c-2")), "a-big", true, 0, 1),
                new Case("finishes on its instance type leave it short of quota, but evicting its team's lower-priority work "
                        + "would now make room: evaluated again, and admitted by that preemption (then its "
                        + "victim is evaluated)",
                        Setup.fcfsPreemptingOwn(aWide).submitLow("a-low", "a", 1, 0).submit("c-1", "c", 1, 0)
                                .submit("c-2", "c", 1, 0).submit("b-1", "b", 1, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> {
                            x.finish("c-2");
                            x.finish("b-1");
                        }), "a-big", true, 2, 0),
                new Case("an admission of another team on its instance type leaves it short of quota even without its team's "
                        + "lower-priority work, which its search took before finding so: it takes the new figures without a search",
                        Setup.fcfsPreemptingOwn(aWide).submit("a-1", "a", 1, 0).submitLow("a-low", "a", 1, 0)
                                .submit("a-big", "a", 4, 0),
                        s -> s.both(x -> x.submit(s.workload("b-1", "b", 1, 0))), "a-big", true, 1, 1),
                new Case("a finish on its instance type gives the room: admitted",
                        Setup.fcfs(poolFull).submit("c-1", "c", 2, 0).submit("b-1", "b", 1, 0).submit("a-big", "a", 2, 0),
                        s -> s.both(x -> x.finish("b-1")), "a-big", true, 1),
                new Case("a finish on the second of its two instance types gives the room: admitted",
                        Setup.fcfs(p5Held).submit("b-p5-1", "b", 0, 1).submit("b-p5-2", "b", 0, 1).submit("a-mix", "a", 1, 1),
                        s -> s.both(x -> x.finish("b-p5-2")), "a-mix", true, 1),
                new Case("a finish on the other instance type leaves the blocked verdict standing",
                        Setup.fcfs(p5Held).submit("b-p5-1", "b", 0, 1).submit("b-p5-2", "b", 0, 1).submit("c-1", "c", 2, 0)
                                .submit("b-1", "b", 1, 0).submit("a-big", "a", 2, 0),
                        s -> s.both(x -> x.finish("b-p5-2")), "a-big", false, 0),
                new Case("a quota change is read by every verdict",
                        Setup.fcfs(inadmissible).submit("b-1", "b", 2, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> x.applyQuota(Setup.quota("a", 2, 8))), "a-big", true, 1),
                new Case("a head that fits keeps its placement over an admission on the other instance type, without being placed again",
                        Setup.fcfs(inadmissible).submit("b-1", "b", 2, 0),
                        s -> s.both(x -> {
                            x.submit(s.workload("b-p5", "b", 0, 1));
                            x.submit(s.workload("a-g5", "a", 1, 0));
                        }), "a-g5", true, 2),
                new Case("a head that fits is placed again after an admission on its instance type took the last node",
                        Setup.fcfs(poolFull).submit("c-1", "c", 2, 0).submit("b-1", "b", 1, 0),
                        s -> s.both(x -> {
                            x.submit(s.workload("c-2", "c", 1, 0));
                            x.submit(s.workload("a-g5", "a", 1, 0));
                        }), "c-2", true, 3),
                new Case("a new node of its instance type changes the capacity its message names",
                        Setup.fcfs(inadmissible).submit("b-1", "b", 2, 0).submit("a-big", "a", 3, 0),
                        s -> s.both(x -> x.upsertNode(Setup.node("g9", G5_TYPE))), "a-big", true, 1));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reusedVerdictsDecideAsFreshOnes(Case c) {
        Setup s = c.setup();
        s.replay();
        WorkloadView before = s.reusing.workload(c.watched()).orElse(null); // null: submitted by the change

        c.change().accept(s);
        long evaluated = s.reusing.evaluations();
        long rechecked = s.reusing.rechecks();
        s.cycleAlike();
        WorkloadView after = s.reusing.workload(c.watched()).orElseThrow();

        assertThat(!after.equals(before)).as("the watched workload's state or verdict changed").isEqualTo(c.verdictChanges());
        assertThat(s.reusing.evaluations() - evaluated).as("evaluations in the change's cycle").isEqualTo(c.evaluations());
        assertThat(s.reusing.rechecks() - rechecked).as("verdicts given new figures alone").isEqualTo(c.rechecks());
    }
}
