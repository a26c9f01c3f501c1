package dev.taskgov.core.scheduling;

import dev.taskgov.core.model.InstanceType;
import dev.taskgov.core.model.PreemptTeamTasks;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.SharingStrategy;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.Workload;
import dev.taskgov.core.preemption.Victim;
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
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The scheduler reuses the verdict of a parked workload for later workloads of the same team,
 * priority and pod sets while the state is unchanged, and so parks a blocked shape's workloads all at
 * once (TeamQueue's shape queues, given their reason and message when the cycle ends). This differential test replays seeded
 * random sequences (few shapes, so alike workloads are the rule) on a scheduler with that reuse
 * and on one that evaluates every workload on its own, and requires the same decisions and the
 * same workload states after every cycle ({@link SameDecisions}: a change of figures alone of a workload settled in its
 * parked shape is not reported, it shows in the workload's message when read): in both modes, with FairShare on and off, on one
 * instance type; and without FairShare on two (some workloads ask for both); and with distinct shapes (many shapes per
 * team, each walked in queue order). With FairShare on
 * two types, some of these seeded sequences make one cycle run for minutes, with and without the
 * memo (not investigated further), so that combination is left out.
 */
class ParkedVerdictReuseTest {

    static final String G5 = "ml.g5.8xlarge";
    static final InstanceType G5_TYPE = new InstanceType(G5, Resources.of(1, 32_000, 128 * 1024));
    static final String P5 = "ml.p5.48xlarge";
    static final InstanceType P5_TYPE = new InstanceType(P5, Resources.of(8, 192_000, 2048 * 1024));
    static final int STEPS = 200;

    /**
     * @param distinct every submission's memory request differs a little from the last ones' (48 amounts in rotation):
     *                 a team's queue holds many shapes, more than the placement's capacity cache keeps
     */
    record Case(String name, long seed, Scheduler.Mode mode, boolean fairShare, boolean twoTypes, int burst, boolean distinct) {
        Case(String name, long seed, Scheduler.Mode mode, boolean fairShare, boolean twoTypes) {
            this(name, seed, mode, fairShare, twoTypes, 1, false);
        }

        Case(String name, long seed, Scheduler.Mode mode, boolean fairShare, boolean twoTypes, int burst) {
            this(name, seed, mode, fairShare, twoTypes, burst, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (boolean twoTypes : List.of(false, true)) {
            String types = twoTypes ? ", two instance types" : "";
            for (int i = 1; i <= 10; i++) {
                long seed = i * 104_729L;
                out.add(new Case("in-process, FCFS" + types + ", seed " + seed, seed, Scheduler.Mode.IN_PROCESS, false, twoTypes));
                if (!twoTypes) out.add(new Case("in-process, fair share" + types + ", seed " + seed, seed, Scheduler.Mode.IN_PROCESS, true, twoTypes));
                out.add(new Case("delegated, FCFS" + types + ", seed " + seed, seed, Scheduler.Mode.DELEGATED, false, twoTypes));
                if (!twoTypes) out.add(new Case("delegated, fair share" + types + ", seed " + seed, seed, Scheduler.Mode.DELEGATED, true, twoTypes));
            }
        }
        // Bursts of up to 8 submissions per step: deep queues of alike workloads, several entering a parked shape between
        // two releases, and priorities interleaving shapes (what parking whole shapes at once must get right).
        for (int i = 1; i <= 5; i++) {
            long seed = i * 15_485_863L;
            out.add(new Case("in-process, FCFS, bursts, seed " + seed, seed, Scheduler.Mode.IN_PROCESS, false, false, 8));
            out.add(new Case("in-process, fair share, bursts, seed " + seed, seed, Scheduler.Mode.IN_PROCESS, true, false, 8));
            out.add(new Case("delegated, FCFS, bursts, seed " + seed, seed, Scheduler.Mode.DELEGATED, false, false, 8));
            out.add(new Case("delegated, fair share, bursts, seed " + seed, seed, Scheduler.Mode.DELEGATED, true, false, 8));
            out.add(new Case("delegated, FCFS, two instance types, bursts, seed " + seed, seed, Scheduler.Mode.DELEGATED, false, true, 8));
        }
        // Distinct shapes: a walk meets many shapes of one team, one workload each, in queue order.
        for (int i = 1; i <= 4; i++) {
            long seed = i * 32_452_843L;
            out.add(new Case("in-process, FCFS, distinct shapes, bursts, seed " + seed, seed, Scheduler.Mode.IN_PROCESS, false, false, 8, true));
            out.add(new Case("in-process, fair share, distinct shapes, bursts, seed " + seed, seed, Scheduler.Mode.IN_PROCESS, true, false, 8, true));
            out.add(new Case("delegated, FCFS, distinct shapes, bursts, seed " + seed, seed, Scheduler.Mode.DELEGATED, false, false, 8, true));
            out.add(new Case("in-process, FCFS, two instance types, distinct shapes, seed " + seed, seed, Scheduler.Mode.IN_PROCESS, false, true, 1, true));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void reuseChangesNoDecision(Case c) {
        Random rnd = new Random(c.seed());
        List<Node> nodes = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            nodes.add(new Node("g" + i, null, G5, Map.of(TopologyLevels.LAYER_3, "r" + i / 4), G5_TYPE.capacity(), true));
        }
        List<InstanceType> types = List.of(G5_TYPE);
        if (c.twoTypes()) {
            types = List.of(G5_TYPE, P5_TYPE);
            for (int i = 0; i < 8; i++) {
                nodes.add(new Node("p" + i, null, P5, Map.of(TopologyLevels.LAYER_3, "pr" + i / 4), P5_TYPE.capacity(), true));
            }
        }
        VirtualClock clock = new VirtualClock(Instant.parse("2026-11-30T10:00:00Z"));
        Scheduler reusing = new Scheduler(clock, c.mode(), types, nodes, true);
        Scheduler reference = new Scheduler(clock, c.mode(), types, nodes, false);
        Map<String, Integer> classes = new LinkedHashMap<>(Map.of("high", 90, "low", 10));
        for (Scheduler s : List.of(reusing, reference)) {
            s.applySchedulerConfig(new SchedulerConfig(classes, c.fairShare()));
            for (int t = 0; t < 3; t++) {
                Map<String, Resources> nominal = c.twoTypes()
                        ? Map.of(G5, G5_TYPE.capacity().times(4 + t), P5, P5_TYPE.capacity().times(2 + t))
                        : Map.of(G5, G5_TYPE.capacity().times(4 + t));
                s.applyQuota(new TeamQuota("t" + t, "t" + t, nominal,
                        SharingStrategy.LendAndBorrow, 50 * t, PreemptTeamTasks.LowerPriority, 25 * (t + 1), true));
            }
        }
        List<String> ids = new ArrayList<>();
        List<Victim> toEvict = new ArrayList<>();
        List<String> preemptors = new ArrayList<>();
        int submitted = 0;
        for (int step = 0; step < STEPS; step++) {
            clock.advance(Duration.ofSeconds(1));
            int action = rnd.nextInt(10);
            if (!toEvict.isEmpty() && action < 3) {
                // delegated mode: the preemption service's evictions arrive
                for (int i = 0; i < toEvict.size(); i++) {
                    Victim v = toEvict.get(i);
                    String by = preemptors.get(i);
                    assertThat(reusing.evict(v, by)).isEqualTo(reference.evict(v, by));
                }
                toEvict.clear();
                preemptors.clear();
            } else if (ids.isEmpty() || action < 7) {
                for (int n = c.burst() == 1 ? 1 : 1 + rnd.nextInt(c.burst()); n > 0; n--) {
                    String id = "w" + step + (c.burst() == 1 ? "" : "-" + n);
                    long less = c.distinct() ? submitted++ % 48 : 0; // MiB
                    String cls = rnd.nextBoolean() ? "high" : "low";
                    TopologyRequest topo = rnd.nextInt(4) == 0 ? TopologyRequest.required(TopologyLevels.LAYER_3) : TopologyRequest.NONE;
                    PodSetRequest g5 = new PodSetRequest("worker", 1 + rnd.nextInt(3), G5, Resources.of(1, 8_000, 32 * 1024 - less), topo);
                    List<PodSetRequest> podSets = List.of(g5);
                    if (c.twoTypes()) {
                        PodSetRequest p5 = new PodSetRequest("trainer", 1 + rnd.nextInt(4), P5, Resources.of(4, 64_000, 512 * 1024 - less), topo);
                        int which = rnd.nextInt(5); // mostly one type, sometimes both
                        podSets = which < 2 ? List.of(g5) : which < 4 ? List.of(p5) : List.of(g5, p5);
                    }
                    Workload w = new Workload(id, "t" + rnd.nextInt(3), cls, classes.get(cls), clock.instant(), podSets);
                    assertThat(reusing.submit(w)).isEqualTo(reference.submit(w));
                    ids.add(id);
                }
            } else {
                String id = ids.remove(rnd.nextInt(ids.size()));
                assertThat(reusing.finish(id)).isEqualTo(reference.finish(id));
            }
            List<Decision> got = SameDecisions.cycleAlike(reusing, reference, "step " + step);
            for (Decision d : got) {
                if (d instanceof Decision.PreemptionNeeded p) {
                    for (Victim v : p.suggestedPlan().victims()) {
                        toEvict.add(v);
                        preemptors.add(p.workload().id());
                    }
                }
            }
        }
    }
}
