package dev.taskgov.core.sim.whatif;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted.AdmittedPodSet;
import dev.taskgov.core.events.WorkloadAdmitted.NodeCount;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.model.WaitForPodsReady;
import dev.taskgov.core.scheduling.Scheduler;
import dev.taskgov.core.topology.Node;
import dev.taskgov.core.topology.TopologyLevels;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static dev.taskgov.core.sim.whatif.Window.G5;
import static dev.taskgov.core.sim.whatif.Window.G5_TYPE;
import static dev.taskgov.core.sim.whatif.Window.delete;
import static dev.taskgov.core.sim.whatif.Window.newConfig;
import static dev.taskgov.core.sim.whatif.Window.quotaOf;
import static dev.taskgov.core.sim.whatif.Window.replace;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * "Made now": what a proposed change would evict at once, from the cluster as its records say it is now (what runs,
 * on which nodes, and what waits), under the scheduler's own rules (docs/semantics.md, "What-if").
 */
class MadeNowTest {

    static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    /** The cluster now, built fluently: one-GPU nodes, quotas, running workloads (each pod on the next free node) and waiting ones. */
    static final class Now {
        private final List<Node> nodes = new ArrayList<>();
        private final Map<String, TeamQuota> quotas = new LinkedHashMap<>();
        private final List<RecordedNow.Running> running = new ArrayList<>();
        private final List<WorkloadSubmitted> pending = new ArrayList<>();
        private SchedulerConfig config = new SchedulerConfig(Map.of("inference", 90, "training", 50, "experiment", 10), false);
        private WaitForPodsReady gang;
        private final Map<String, Scheduler.Readiness> readiness = new LinkedHashMap<>();
        private int nextFree;

        private Now(int gpus) {
            for (int i = 1; i <= gpus; i++) {
                nodes.add(new Node("n" + i, null, G5, Map.of(TopologyLevels.LAYER_1, "nn-1"), G5_TYPE.capacity(), true));
            }
        }

        static Now gpus(int n) {
            return new Now(n);
        }

        Now quota(String team, int gpus, UnaryOperator<TeamQuota> tweak) {
            quotas.put(team, tweak.apply(quotaOf(team, gpus)));
            return this;
        }

        Now quota(String team, int gpus) {
            return quota(team, gpus, q -> q);
        }

        Now config(SchedulerConfig c) {
            config = c;
            return this;
        }

        /** Gang admission on, with this readiness timeout. */
        Now gangTimeout(Duration timeout) {
            gang = WaitForPodsReady.withTimeout(timeout);
            return this;
        }

        /** The waiting {@code id} was requeued once after a readiness timeout and backs off for {@code minutes} more. */
        Now backingOff(String id, int minutes) {
            readiness.put(id, new Scheduler.Readiness(false, 1, NOW.plusSeconds(60L * minutes)));
            return this;
        }

        /** {@code id} runs now, admitted {@code minutesAgo}, submitted a minute before; its pods on the next free nodes. */
        Now running(String id, String team, int gpus, String priority, int minutesAgo) {
            List<NodeCount> on = new ArrayList<>();
            for (int i = 0; i < gpus; i++) on.add(new NodeCount(nodes.get(nextFree++).name(), 1));
            running.add(new RecordedNow.Running(submission(id, team, gpus, priority, minutesAgo + 1), NOW.minusSeconds(60L * minutesAgo),
                    List.of(new AdmittedPodSet("worker", G5, null, on)), Map.of()));
            return this;
        }

        /** {@code id} waits now, submitted {@code minutesAgo}. */
        Now waiting(String id, String team, int gpus, String priority, int minutesAgo) {
            pending.add(submission(id, team, gpus, priority, minutesAgo));
            return this;
        }

        private static WorkloadSubmitted submission(String id, String team, int gpus, String priority, int minutesAgo) {
            return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", priority, "PyTorchJob", null,
                    List.of(new PodSetSpec("worker", gpus, G5, new ResourceAmounts(BigDecimal.ONE, BigDecimal.ONE, BigDecimal.ONE), null, null)),
                    Window.CLUSTER).withSubmittedAt(NOW.minusSeconds(60L * minutesAgo));
        }

        RecordedNow recorded() {
            return new RecordedNow(NOW, Map.of(G5, G5_TYPE), nodes, config, List.copyOf(quotas.values()), running, pending, Map.of(),
                    gang, readiness);
        }
    }

    /** @param evicted "id reason", with " for preemptor" when one was admitted in its place, in the order decided */
    record Case(String name, Now now, ProposedChange change, List<String> evicted) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Case scenario(String name, Now now, ProposedChange change, String... evicted) {
        return new Case(name, now, change, List.of(evicted));
    }

    static Stream<Case> cases() {
        return Stream.of(
                scenario("a deleted quota evicts what its team runs now, its borrowed work too",
                        Now.gpus(4).quota("team-a", 1).quota("team-b", 2)
                                .running("a1", "team-a", 1, "training", 30).running("a2", "team-a", 1, "training", 10)
                                .running("b1", "team-b", 1, "training", 20),
                        delete("team-a"),
                        "a1 QuotaRemoved", "a2 QuotaRemoved"),
                scenario("a deleted quota of a team that runs nothing now evicts nothing, whatever it waits for",
                        Now.gpus(3).quota("team-a", 1).quota("team-b", 2)
                                .running("b1", "team-b", 1, "training", 20).running("b2", "team-b", 1, "training", 5)
                                .waiting("a1", "team-a", 2, "training", 3),
                        delete("team-a")),
                scenario("quota moved to a waiting team: it reclaims what the other team runs, the latest admitted first",
                        Now.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .running("b1", "team-b", 1, "training", 50).running("b2", "team-b", 1, "training", 40)
                                .waiting("a1", "team-a", 2, "training", 30),
                        replace(quotaOf("team-b", 0), quotaOf("team-a", 2)),
                        "b2 ReclaimLentCapacity for a1", "b1 ReclaimLentCapacity for a1"),
                scenario("a grown quota reclaims only as much as its waiting work needs, the latest admitted first",
                        Now.gpus(3).quota("team-a", 1).quota("team-b", 2)
                                .running("b1", "team-b", 1, "training", 50).running("b2", "team-b", 1, "training", 40)
                                .running("b3", "team-b", 1, "training", 30)
                                .waiting("a1", "team-a", 2, "training", 20),
                        replace(quotaOf("team-a", 2), quotaOf("team-b", 1)),
                        "b3 ReclaimLentCapacity for a1", "b2 ReclaimLentCapacity for a1"),
                scenario("a new config: the waiting higher class preempts in the team",
                        Now.gpus(1).quota("team-a", 1, q -> q.withBorrowLimit(0))
                                .config(new SchedulerConfig(Map.of("training", 50, "experiment", 50), false))
                                .running("a1", "team-a", 1, "experiment", 60).waiting("a2", "team-a", 1, "training", 30),
                        newConfig(new SchedulerConfig(Map.of("training", 90, "experiment", 10), false)),
                        "a1 InTeamPriority for a2"),
                scenario("what fits now is admitted before the change, as the decider would have, and is evicted with its team's quota",
                        Now.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .running("a1", "team-a", 1, "training", 20).waiting("a2", "team-a", 1, "training", 1),
                        delete("team-a"),
                        "a1 QuotaRemoved", "a2 QuotaRemoved"),
                scenario("gang admission on: a workload backing off after a readiness timeout heads no queue yet, so the quota it"
                                + " would reclaim with evicts nothing",
                        Now.gpus(2).gangTimeout(Duration.ofMinutes(10)).quota("team-a", 1).quota("team-b", 1)
                                .running("b1", "team-b", 1, "training", 50).running("b2", "team-b", 1, "training", 40)
                                .waiting("a1", "team-a", 2, "training", 30).backingOff("a1", 5),
                        replace(quotaOf("team-b", 0), quotaOf("team-a", 2))),
                scenario("gang admission on: running work past its readiness timeout is not evicted before the change (timeouts are"
                                + " not the change's doing), so the grown quota reclaims from it",
                        Now.gpus(2).gangTimeout(Duration.ofMinutes(10)).quota("team-a", 0).quota("team-b", 1)
                                .running("b1", "team-b", 1, "training", 50).running("b2", "team-b", 1, "training", 40)
                                .waiting("a1", "team-a", 1, "training", 30),
                        replace(quotaOf("team-a", 1)),
                        "b2 ReclaimLentCapacity for a1"),
                scenario("an unchanged quota evicts nothing",
                        Now.gpus(2).quota("team-a", 1).quota("team-b", 1)
                                .running("a1", "team-a", 1, "training", 20).running("b1", "team-b", 1, "experiment", 5),
                        replace(quotaOf("team-a", 1))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void predictsTheEvictionsFromTheRecordedState(Case c) {
        List<String> notRestored = new ArrayList<>();
        List<String> evicted = MadeNow.evictions(c.now().recorded(), c.change(), notRestored::add).stream()
                .map(e -> e.workloadId() + " " + e.reason() + (e.preemptorWorkloadId() == null ? "" : " for " + e.preemptorWorkloadId()))
                .toList();
        assertThat(evicted).as(c.name()).containsExactlyElementsOf(c.evicted());
        assertThat(notRestored).as(c.name()).isEmpty();
    }
}
