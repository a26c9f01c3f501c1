package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Failover: three admission and three preemption deciders, each in its own process, share
 * eight clusters (the eight partitions of the workload topics); in the middle of a burst that makes every
 * cluster reclaim lent capacity, one admission process and one preemption process are killed with
 * {@code kill -9}. Their partitions move to the survivors; reading every topic afterwards, per cluster: nothing
 * is lost (every submission has its status), no workload is admitted twice for one submission, no node and no
 * team goes over its capacity or quota, every eviction names its preemptor and reason, and the reclaim
 * succeeded. Then finishes free room and the survivors admit again.
 */
class PartitionFailoverTest {

    private static final int CLUSTERS = 8;
    private static final int NODES = 4; // 32 accelerators per cluster
    private static final long QUOTA = 16; // per team; the default borrowing limit (50 %) lets a team run 24
    private static final int A = 24;
    private static final int B = 16;

    @Test
    void aKilledDecidersClustersMoveAndEveryClusterKeepsItsInvariants() {
        try (DeciderFleet fleet = new DeciderFleet("failover")) {
            fleet.declareClusters(CLUSTERS, NODES, Map.of("team-a", QUOTA, "team-b", QUOTA));
            for (String role : List.of("admission", "preemption")) {
                for (int i = 1; i <= 3; i++) fleet.start(role, role + "-" + i);
            }
            int partitions = TopicCatalog.WORKLOAD_PARTITIONS;
            fleet.awaitOwners("admission", Set.of("admission-1", "admission-2", "admission-3"), partitions);
            fleet.awaitOwners("preemption", Set.of("preemption-1", "preemption-2", "preemption-3"), partitions);

            Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
            for (int c = 0; c < CLUSTERS; c++) {
                for (int i = 0; i < A; i++) {
                    String id = "a-" + c + "-" + i;
                    fleet.publish(fleet.admissionTopics.submitted(), id,
                            DeciderFleet.workload(DeciderFleet.arn(c), id, "team-a", 1, t0.plusMillis(i)));
                }
            }
            fleet.flush();
            // Who owns what just before the kill (a burst under load may have set off a rebalance: wait for it to end).
            Set<Integer> movedAdmission = fleet.awaitOwners("admission", Set.of("admission-1", "admission-2", "admission-3"),
                    partitions).get("admission-2");
            Set<Integer> movedPreemption = fleet.awaitOwners("preemption", Set.of("preemption-1", "preemption-2", "preemption-3"),
                    partitions).get("preemption-2");
            Instant killedAt = null;
            for (int c = 0; c < CLUSTERS; c++) {
                for (int i = 0; i < B; i++) {
                    String id = "b-" + c + "-" + i;
                    fleet.publish(fleet.admissionTopics.submitted(), id,
                            DeciderFleet.workload(DeciderFleet.arn(c), id, "team-b", 1, t0.plusSeconds(60).plusMillis(i)));
                }
                if (c == CLUSTERS / 2 - 1) {
                    fleet.flush();
                    killedAt = Instant.now();
                    fleet.kill9("admission-2");
                    fleet.kill9("preemption-2");
                }
            }
            fleet.flush();

            // The dead instances' partitions move to the survivors.
            fleet.awaitOwners("admission", Set.of("admission-1", "admission-3"), partitions);
            fleet.awaitOwners("preemption", Set.of("preemption-1", "preemption-3"), partitions);
            fleet.awaitQuiet(Duration.ofMinutes(4));
            Outcome reclaimed = Outcome.read(fleet);
            reclaimed.assertEveryCluster(16, 8, 16, 0); // team-b reclaimed its lent 8 in every cluster
            // The survivors' logs (target/decider-fleet/<id>/) time each takeover and first commit by the wall clock.
            System.out.printf("failover: kill -9 of admission-2 and preemption-2 at %s (logs in %s)%n", killedAt, fleet.logs());
            report("admission", movedAdmission, reclaimed, killedAt);
            reportPreemption(movedPreemption, reclaimed, killedAt);

            // Finishes free room: the survivors admit team-a's waiting work again.
            for (int c = 0; c < CLUSTERS; c++) {
                for (int i = 0; i < 4; i++) {
                    String id = "b-" + c + "-" + i;
                    fleet.publish(fleet.admissionTopics.finished(), id, new WorkloadFinished(id, Instant.now(),
                            WorkloadFinished.Outcome.Succeeded, DeciderFleet.arn(c).value()));
                }
            }
            fleet.flush();
            fleet.awaitQuiet(Duration.ofMinutes(4));
            Outcome.read(fleet).assertEveryCluster(20, 4, 12, 4);
            assertThat(movedPreemption).as("the killed preemption decider owned partitions").isNotEmpty();
        }
    }

    /** Prints when the first decision for a moved cluster was made after the kill (a figure, not a limit). */
    private static void report(String role, Set<Integer> moved, Outcome o, Instant killedAt) {
        long first = o.admittedAt.entrySet().stream()
                .filter(e -> moved.contains(ClusterPartitions.of(o.clusterOf.get(e.getKey()).value(), TopicCatalog.WORKLOAD_PARTITIONS)))
                .flatMap(e -> e.getValue().stream()).filter(t -> t.isAfter(killedAt))
                .mapToLong(t -> Duration.between(killedAt, t).toMillis()).min().orElse(-1);
        System.out.printf("failover: first admission for a cluster of the killed %s decider (partitions %s) %d ms after kill -9%n",
                role, moved, first);
    }

    /**
     * Prints when the first preemption for a cluster of the killed preemption decider was written after the kill (a
     * figure, not a limit). It includes the admission side: the request comes from that cluster's admission decider,
     * which may have moved too.
     */
    private static void reportPreemption(Set<Integer> moved, Outcome o, Instant killedAt) {
        long first = o.preemptedAtByCluster.entrySet().stream()
                .filter(e -> moved.contains(ClusterPartitions.of(e.getKey().value(), TopicCatalog.WORKLOAD_PARTITIONS)))
                .flatMap(e -> e.getValue().stream()).filter(t -> t.isAfter(killedAt))
                .mapToLong(t -> Duration.between(killedAt, t).toMillis()).min().orElse(-1);
        System.out.printf("failover: first preemption for a cluster of the killed preemption decider (partitions %s) %d ms after kill -9%n",
                moved, first);
    }

    /** Every topic, read back, per workload. */
    private static final class Outcome {
        final Map<String, ClusterArn> clusterOf = new HashMap<>();
        final Map<String, WorkloadStatus> status = new HashMap<>();
        final Map<String, Integer> admissions = new HashMap<>();
        final Map<String, Integer> evictions = new HashMap<>();
        final Map<String, WorkloadAdmitted> placement = new HashMap<>();
        final Map<String, List<Instant>> admittedAt = new HashMap<>();
        final List<WorkloadPreempted> preempted = new ArrayList<>();
        /** When each preemption was written (the broker's record time), by the victim's cluster. */
        final Map<ClusterArn, List<Instant>> preemptedAtByCluster = new HashMap<>();
        final Map<String, Integer> admittedPartition = new HashMap<>();

        static Outcome read(DeciderFleet fleet) {
            Outcome o = new Outcome();
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.submitted())) {
                WorkloadSubmitted s = EventCodec.read(r.value(), WorkloadSubmitted.class);
                o.clusterOf.put(s.workloadId(), s.cluster());
            }
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.status())) {
                o.status.put(r.key(), EventCodec.read(r.value(), WorkloadStatus.class));
            }
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.admitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                if (!WorkloadAdmitted.NODE_REPLACED.equals(a.reason())) o.admissions.merge(a.workloadId(), 1, Integer::sum);
                o.placement.put(a.workloadId(), a);
                o.admittedAt.computeIfAbsent(a.workloadId(), k -> new ArrayList<>()).add(Instant.ofEpochMilli(r.timestamp()));
                o.admittedPartition.put(a.workloadId(), r.partition());
            }
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.preempted())) {
                WorkloadPreempted p = EventCodec.read(r.value(), WorkloadPreempted.class);
                o.evictions.merge(p.workloadId(), 1, Integer::sum);
                o.preempted.add(p);
                o.preemptedAtByCluster.computeIfAbsent(p.cluster(), k -> new ArrayList<>()).add(Instant.ofEpochMilli(r.timestamp()));
            }
            return o;
        }

        private List<String> ids(int cluster) {
            ClusterArn arn = DeciderFleet.arn(cluster);
            return clusterOf.entrySet().stream().filter(e -> e.getValue().equals(arn)).map(Map.Entry::getKey).sorted().toList();
        }

        long count(int cluster, String prefix, WorkloadState state) {
            return ids(cluster).stream().filter(id -> id.startsWith(prefix))
                    .filter(id -> status.containsKey(id) && status.get(id).state() == state).count();
        }

        /** In every cluster the invariants hold and team-a runs and waits, team-b runs and finished, so many. */
        void assertEveryCluster(long aRunning, long aWaiting, long bRunning, long bFinished) {
            for (int c = 0; c < CLUSTERS; c++) {
                assertInvariants(c);
                assertThat(count(c, "a-", WorkloadState.Admitted)).as("cluster %d team-a running", c).isEqualTo(aRunning);
                assertThat(count(c, "a-", WorkloadState.Pending)).as("cluster %d team-a waiting", c).isEqualTo(aWaiting);
                assertThat(count(c, "b-", WorkloadState.Admitted)).as("cluster %d team-b running", c).isEqualTo(bRunning);
                assertThat(count(c, "b-", WorkloadState.Finished)).as("cluster %d team-b finished", c).isEqualTo(bFinished);
            }
        }

        void assertInvariants(int cluster) {
            ClusterArn arn = DeciderFleet.arn(cluster);
            List<String> ids = ids(cluster);
            assertThat(ids).as("cluster %d submissions", cluster).hasSize(A + B);
            int home = ClusterPartitions.of(arn.value(), TopicCatalog.WORKLOAD_PARTITIONS);
            Map<String, Integer> podsPerNode = new TreeMap<>();
            Map<String, Integer> podsPerTeam = new TreeMap<>();
            for (String id : ids) {
                assertThat(status).as("nothing lost: %s has a status", id).containsKey(id);
                WorkloadStatus s = status.get(id);
                assertThat(s.state()).as("%s", id).isIn(WorkloadState.Admitted, WorkloadState.Pending, WorkloadState.Finished);
                if (s.state() == WorkloadState.Pending) assertThat(s.reason()).as("%s waits with a reason", id).isNotBlank();
                int admitted = admissions.getOrDefault(id, 0);
                int evicted = evictions.getOrDefault(id, 0);
                assertThat(admitted).as("no double admission of %s (admitted %d, evicted %d)", id, admitted, evicted)
                        .isBetween(evicted, evicted + 1);
                boolean running = s.state() == WorkloadState.Admitted;
                if (running) assertThat(admitted).as("%s runs: admitted once more than evicted", id).isEqualTo(evicted + 1);
                if (s.state() == WorkloadState.Pending) assertThat(admitted).as("%s waits: evicted as often as admitted", id).isEqualTo(evicted);
                if (placement.containsKey(id)) {
                    assertThat(placement.get(id).cluster()).as("%s admitted in its own cluster", id).isEqualTo(arn);
                    assertThat(admittedPartition.get(id)).as("%s admitted on its cluster's partition", id).isEqualTo(home);
                }
                if (running) {
                    placement.get(id).podSets().forEach(ps -> ps.nodes().forEach(n -> podsPerNode.merge(n.name(), n.count(), Integer::sum)));
                    podsPerTeam.merge(id.substring(0, 1), placement.get(id).podSets().stream()
                            .mapToInt(ps -> ps.nodes().stream().mapToInt(WorkloadAdmitted.NodeCount::count).sum()).sum(), Integer::sum);
                }
            }
            assertThat(podsPerNode.values()).as("cluster %d: no node over its 8 accelerators", cluster).allMatch(n -> n <= 8);
            assertThat(podsPerTeam.values()).as("cluster %d: no team over nominal + borrowing limit", cluster)
                    .allMatch(n -> n <= QUOTA + QUOTA / 2);
            assertThat(podsPerTeam.values().stream().mapToInt(Integer::intValue).sum()).as("cluster %d within capacity", cluster)
                    .isLessThanOrEqualTo(NODES * 8);
            Set<String> mine = new TreeSet<>(ids);
            for (WorkloadPreempted p : preempted.stream().filter(p -> mine.contains(p.workloadId())).toList()) {
                assertThat(p.preemptorWorkloadId()).as("eviction of %s names its preemptor", p.workloadId()).isNotBlank();
                assertThat(p.reason()).as("eviction of %s names its reason", p.workloadId()).isNotNull();
                assertThat(mine).as("the preemptor of %s is in the same cluster", p.workloadId()).contains(p.preemptorWorkloadId());
            }
            assertThat(preempted.stream().filter(p -> mine.contains(p.workloadId())).map(WorkloadPreempted::workloadId)
                    .collect(Collectors.toSet())).as("cluster %d: only team-a's borrowed work is reclaimed", cluster)
                    .allMatch(id -> id.startsWith("a-"));
        }
    }
}
