package dev.taskgov.preemption;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntPredicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A storm of 200 preemption requests published concurrently by four teams against a full
 * cluster (25 nodes x 8 accelerators; team-d borrows 20 of team-c's idle quota), checked only by
 * reading the topics: invariants 1-4 of docs/semantics.md ("Invariants") hold on the resulting state (what was admitted,
 * minus what was evicted, plus the room reserved for each preemptor), no victim is evicted twice,
 * every request is served once. Then the same with the decider replaced in the middle.
 */
class StormTest {

    static final int NODES = 25;
    static final int PER_NODE = 8;
    static final Map<String, Integer> NOMINAL = Map.of("team-a", 50, "team-b", 50, "team-c", 50, "team-d", 50);
    static final Map<String, Integer> RUNNING = Map.of("team-a", 50, "team-b", 50, "team-c", 30, "team-d", 70);
    static final int BORROW_LIMIT_PERCENT = 50;
    static final int REQUESTS_PER_TEAM = 50;

    TestCluster cluster;
    Fixture fixture;
    final Map<String, String> teamOf = new HashMap<>();

    @BeforeEach
    void setUp(TestInfo info) {
        cluster = new TestCluster(info.getTestMethod().orElseThrow().getName());
        fixture = new Fixture(cluster).nodes(NODES, PER_NODE).config(Map.of("low", 10, "high", 90), false);
        NOMINAL.forEach((team, n) -> fixture.quota(team, n, BORROW_LIMIT_PERCENT));
        int slot = 0;
        for (String team : new TreeMap<>(RUNNING).keySet()) {
            for (int i = 0; i < RUNNING.get(team); i++) {
                String id = team + "-low-" + i;
                fixture.running(id, team, "low-priority", "n" + (slot / PER_NODE + 1));
                teamOf.put(id, team);
                slot++;
            }
        }
    }

    @AfterEach
    void tearDown() {
        cluster.close();
    }

    @Test
    void aStormOf200ConcurrentRequestsKeepsTheInvariants() throws Exception {
        PreemptionDecider decider = cluster.startDecider();
        storm(i -> true);
        cluster.awaitHandled(decider);
        checkInvariants();
    }

    @Test
    void aRestartInTheMiddleOfTheStormLosesAndDuplicatesNoEviction() throws Exception {
        PreemptionDecider first = cluster.startDecider();
        storm(i -> i < REQUESTS_PER_TEAM / 2);
        await().atMost(Duration.ofMinutes(2)).until(() ->
                cluster.handled(first) >= 30);
        first.close(); // mid-storm: part of the first half is still unhandled
        PreemptionDecider second = cluster.startDecider();
        storm(i -> i >= REQUESTS_PER_TEAM / 2);
        cluster.awaitHandled(second);
        checkInvariants();
    }

    /** Each team publishes its requests (the selected indexes) from its own thread. */
    private void storm(IntPredicate which) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(NOMINAL.size());
        try {
            List<Future<?>> done = new ArrayList<>();
            for (String team : NOMINAL.keySet()) {
                done.add(pool.submit(() -> {
                    for (int i = 0; i < REQUESTS_PER_TEAM; i++) {
                        if (!which.test(i)) continue;
                        WorkloadSubmitted high = Fixture.workload(team + "-high-" + i, team, "high-priority", 1);
                        cluster.publish(cluster.topics.submitted(), high.workloadId(), high);
                        cluster.publish(cluster.topics.preemptionRequested(), high.workloadId(), Fixture.request(high, 90),
                                PreemptionRequested.TYPE);
                    }
                }));
            }
            for (Future<?> f : done) f.get();
        } finally {
            pool.shutdown();
        }
    }

    private void checkInvariants() {
        List<WorkloadPreempted> evictions = cluster.readAll(cluster.topics.preempted(), WorkloadPreempted.class);
        // Invariant 4: every eviction names its preemptor and its reason (with numbers).
        assertThat(evictions).allSatisfy(p -> {
            assertThat(p.preemptorWorkloadId()).contains("-high-");
            assertThat(p.reason()).isNotNull();
            assertThat(p.message()).containsPattern("\\d");
        });
        // No victim twice; only running (low) workloads are victims.
        Set<String> victims = new HashSet<>();
        for (WorkloadPreempted p : evictions) {
            assertThat(victims.add(p.workloadId())).as("%s evicted once", p.workloadId()).isTrue();
            assertThat(teamOf).containsKey(p.workloadId());
        }
        // Every request served once: each 1-pod preemptor got exactly one victim, and all 200 were served.
        Map<String, Long> perPreemptor = new TreeMap<>();
        evictions.forEach(p -> perPreemptor.merge(p.preemptorWorkloadId(), 1L, Long::sum));
        assertThat(perPreemptor.values()).allMatch(n -> n == 1);
        assertThat(perPreemptor).hasSize(NOMINAL.size() * REQUESTS_PER_TEAM);
        // A team's reclaim of its lent quota succeeds: team-c took back the 20 team-d borrowed.
        assertThat(evictions.stream().filter(p -> p.reason() == PreemptionReason.ReclaimLentCapacity))
                .hasSize(20).allSatisfy(p -> {
                    assertThat(p.team()).isEqualTo("team-d");
                    assertThat(p.preemptorWorkloadId()).startsWith("team-c-");
                });

        // The resulting state: admitted, minus evicted, plus the room reserved for each preemptor.
        Map<String, Integer> perNode = new TreeMap<>();
        Map<String, Integer> perTeam = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(cluster.topics.admitted())) {
            WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
            if (victims.contains(a.workloadId())) continue;
            count(a.podSets(), a.team(), perNode, perTeam);
        }
        Map<String, ChangelogRecords.Reservation> reservations = new TreeMap<>();
        for (ConsumerRecord<String, byte[]> r : cluster.readAll(cluster.topics.changelog())) {
            if (r.key() == null || !r.key().startsWith("reservation:")) continue;
            if (r.value() == null) reservations.remove(r.key());
            else reservations.put(r.key(), EventCodec.read(r.value(), ChangelogRecords.Reservation.class));
        }
        assertThat(reservations).hasSize(perPreemptor.size());
        reservations.values().forEach(res -> count(res.podSets(), res.team(), perNode, perTeam));
        // Invariant 2: no node holds more than its allocatable.
        assertThat(perNode.values()).allMatch(n -> n <= PER_NODE);
        // Invariant 1: a team within nominal + borrowing limit; the cohort within capacity.
        perTeam.forEach((team, used) -> assertThat(used).as("usage of %s", team)
                .isLessThanOrEqualTo(NOMINAL.get(team) + NOMINAL.get(team) * BORROW_LIMIT_PERCENT / 100));
        assertThat(perTeam.values().stream().mapToInt(Integer::intValue).sum()).isLessThanOrEqualTo(NODES * PER_NODE);
        // Each team now runs its 50 high-priority workloads.
        assertThat(perTeam).containsExactlyInAnyOrderEntriesOf(Map.of("team-a", 50, "team-b", 50, "team-c", 50, "team-d", 50));
    }

    private static void count(List<WorkloadAdmitted.AdmittedPodSet> podSets, String team, Map<String, Integer> perNode,
                              Map<String, Integer> perTeam) {
        for (WorkloadAdmitted.AdmittedPodSet ps : podSets) {
            for (WorkloadAdmitted.NodeCount n : ps.nodes()) {
                perNode.merge(n.name(), n.count(), Integer::sum);
                perTeam.merge(team, n.count(), Integer::sum); // one accelerator per pod
            }
        }
    }
}
