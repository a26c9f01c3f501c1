package dev.taskgov.it;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The partition benchmark (docs/benchmarks.md, "Partitioned deciders and failover"), NOT part of the test suite (the name does
 * not match surefire's test patterns; it runs only when named): admission decisions per second and
 * submit-to-admitted latency with 1, 2 and 4 admission decider processes over 16 clusters, CPU seconds of the
 * deciders per 1,000 decisions, and the failover time from {@code kill -9} of an owner to the next admission in
 * one of its clusters by another instance; with {@code -Dtaskgov.bench.preemption-failovers=N}, the same for a
 * preemption decider (to the next eviction in one of its clusters). It asserts only that every workload was
 * admitted; the figures are printed and written to {@code target/partition-bench.txt}.
 *
 * <pre>./mvnw -B -o -pl it -am verify -Dtest=PartitionBench -Dsurefire.failIfNoSpecifiedTests=false \
 *     -Dtaskgov.bench.deciders=1,2,4 -Dtaskgov.bench.per-cluster=250</pre>
 */
class PartitionBench {

    private static final int CLUSTERS = 16;
    private static final int NODES = 32; // 256 accelerators per cluster

    @Test
    void decisionsPerSecondLatencyCpuAndFailover() throws Exception {
        int perCluster = Integer.getInteger("taskgov.bench.per-cluster", 250);
        List<Integer> deciders = Arrays.stream(System.getProperty("taskgov.bench.deciders", "1,2,4").split(","))
                .map(String::trim).filter(x -> !x.isEmpty()).map(Integer::parseInt).toList();
        StringBuilder out = new StringBuilder();
        out.append(String.format("cores=%d clusters=%d workloads/cluster=%d partitions=%d%n",
                Runtime.getRuntime().availableProcessors(), CLUSTERS, perCluster, TopicCatalog.WORKLOAD_PARTITIONS));
        for (int k : deciders) out.append(throughput(k, perCluster)).append('\n');
        for (int i = 0; i < Integer.getInteger("taskgov.bench.failovers", 3); i++) out.append(failover()).append('\n');
        for (int i = 0; i < Integer.getInteger("taskgov.bench.preemption-failovers", 0); i++) {
            out.append(preemptionFailover()).append('\n');
        }
        System.out.print(out);
        Files.writeString(Path.of("target", "partition-bench.txt"), out);
    }

    private static String throughput(int k, int perCluster) throws Exception {
        try (DeciderFleet fleet = new DeciderFleet("bench-" + k)) {
            fleet.declareClusters(CLUSTERS, NODES, Map.of("team-a", (long) NODES * 8));
            Set<String> names = new TreeSet<>();
            for (int i = 1; i <= k; i++) {
                fleet.start("admission", "admission-" + i);
                names.add("admission-" + i);
            }
            fleet.start("preemption", "preemption-1");
            fleet.awaitOwners("admission", names, TopicCatalog.WORKLOAD_PARTITIONS);
            fleet.awaitQuiet(Duration.ofMinutes(2)); // every decider has rebuilt and settled
            long cpuBefore = cpuMillis(fleet, names);
            Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
            for (int i = 0; i < perCluster; i++) {
                for (int c = 0; c < CLUSTERS; c++) {
                    ClusterArn arn = DeciderFleet.arn(c);
                    String id = "w-" + c + "-" + i;
                    fleet.publishToPartition(fleet.admissionTopics.submitted(),
                            ClusterPartitions.of(arn.value(), TopicCatalog.WORKLOAD_PARTITIONS), id,
                            DeciderFleet.workload(arn, id, "team-a", 1, t0.plusMillis(i)));
                }
            }
            fleet.flush();
            fleet.awaitQuiet(Duration.ofMinutes(10));
            long cpu = cpuMillis(fleet, names) - cpuBefore;
            Map<String, Long> submittedAt = new HashMap<>();
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.submitted())) submittedAt.put(r.key(), r.timestamp());
            List<Long> latencies = new ArrayList<>();
            long first = Long.MAX_VALUE;
            long last = 0;
            for (ConsumerRecord<String, byte[]> r : fleet.readAll(fleet.admissionTopics.admitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                long s = submittedAt.get(a.workloadId());
                latencies.add(r.timestamp() - s);
                first = Math.min(first, s);
                last = Math.max(last, r.timestamp());
            }
            int n = latencies.size();
            assertThat(n).as("every workload admitted").isEqualTo(CLUSTERS * perCluster);
            latencies.sort(null);
            double seconds = (last - first) / 1000.0;
            return String.format("deciders=%d decisions=%d wall=%.1fs decisions/s=%.0f submit->admitted p50=%dms p99=%dms "
                            + "decider-cpu=%.1fs cpu-s/1000=%.2f", k, n, seconds, n / seconds, latencies.get(n / 2),
                    latencies.get((int) Math.min(n - 1, Math.ceil(n * 0.99) - 1)), cpu / 1000.0, cpu / (n / 1000.0) / 1000.0);
        }
    }

    /** Two deciders (warm standby for each other's partitions); kill -9 one; probes in its clusters; time to their first admission. */
    private static String failover() throws Exception {
        try (DeciderFleet fleet = new DeciderFleet("failover-bench")) {
            fleet.declareClusters(CLUSTERS, 4, Map.of("team-a", 32L));
            fleet.start("admission", "admission-1");
            fleet.start("admission", "admission-2");
            fleet.start("preemption", "preemption-1");
            fleet.awaitOwners("admission", Set.of("admission-1", "admission-2"), TopicCatalog.WORKLOAD_PARTITIONS);
            Set<Integer> moved = fleet.owners("admission").get("admission-2");
            List<ClusterArn> movedClusters = clustersOf(fleet, moved);
            Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
            // Both deciders decide for all their partitions (one admission in every cluster) before the kill: a decider
            // still taking its own partitions when the other dies would be timed as well.
            for (int c = 0; c < CLUSTERS; c++) {
                ClusterArn arn = fleet.clusters.get(c);
                fleet.publishToPartition(fleet.admissionTopics.submitted(),
                        ClusterPartitions.of(arn.value(), TopicCatalog.WORKLOAD_PARTITIONS), "warm-" + c,
                        DeciderFleet.workload(arn, "warm-" + c, "team-a", 1, t0));
            }
            fleet.flush();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> fleet.readAll(fleet.admissionTopics.admitted()).size() == CLUSTERS);
            fleet.awaitQuiet(Duration.ofMinutes(2));
            if (Boolean.parseBoolean(System.getProperty("taskgov.bench.await-standbys", "true"))) {
                // and the survivor's standbys of the partitions about to move have read their topics to the end
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> moved.stream()
                        .allMatch(n -> fleet.logContains("admission-1", "warm standby of partition " + n + " caught up")));
            }
            Instant killed = Instant.now();
            fleet.kill9("admission-2");
            // A steady trickle into the dead owner's clusters: the first admission of any of them ends the failover.
            int i = 0;
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            Long firstAdmission = null;
            while (firstAdmission == null && System.nanoTime() < deadline) {
                for (ClusterArn c : movedClusters) {
                    String id = "probe-" + i++;
                    fleet.publishToPartition(fleet.admissionTopics.submitted(),
                            ClusterPartitions.of(c.value(), TopicCatalog.WORKLOAD_PARTITIONS), id,
                            DeciderFleet.workload(c, id, "team-a", 1, t0.plusMillis(i)));
                }
                fleet.flush();
                firstAdmission = fleet.readAll(fleet.admissionTopics.admitted()).stream().filter(r -> r.key().startsWith("probe-"))
                        .map(ConsumerRecord::timestamp).min(Long::compare).orElse(null);
            }
            long detected = fleet.owners("admission").containsKey("admission-2") ? -1 : 0;
            return String.format("failover (2 deciders, session 1 s, heartbeat 250 ms, dynamic membership): kill -9 -> first "
                            + "admission in a moved cluster %d ms (partitions moved %s, %d clusters)%s; killed at %s (UTC)%n%s",
                    firstAdmission == null ? -1 : firstAdmission - killed.toEpochMilli(), moved, movedClusters.size(),
                    detected < 0 ? " [killed member still listed]" : "", killed,
                    timeline(fleet.logs().resolve("admission-1.log"), killed));
        }
    }

    /**
     * Two preemption deciders (each the other's warm standby) and no admission decider: every cluster runs 32
     * one-accelerator training workloads (published as admission would), preemption requests come straight onto the
     * requests topic. kill -9 one decider, then a trickle of requests of higher priority into its clusters: the time
     * to the first eviction in one of them, written by the survivor.
     */
    private static String preemptionFailover() throws Exception {
        try (DeciderFleet fleet = new DeciderFleet("preemption-failover-bench")) {
            fleet.declareClusters(CLUSTERS, 4, Map.of("team-a", 32L));
            Instant t0 = Instant.parse("2026-12-01T10:00:00Z");
            for (ClusterArn c : fleet.clusters) {
                int partition = ClusterPartitions.of(c.value(), TopicCatalog.WORKLOAD_PARTITIONS);
                for (int i = 0; i < 32; i++) {
                    String id = "run-" + c.shortId() + "-" + i;
                    fleet.publishToPartition(fleet.admissionTopics.submitted(), partition, id,
                            DeciderFleet.workload(c, id, "team-a", 1, t0.plusMillis(i)));
                    fleet.publishToPartition(fleet.admissionTopics.admitted(), partition, id, new WorkloadAdmitted(id, "team-a",
                            t0.plusSeconds(1).plusMillis(i), Map.of(), List.of(new WorkloadAdmitted.AdmittedPodSet("worker",
                            DeciderFleet.TYPE, null, List.of(new WorkloadAdmitted.NodeCount("node-" + (i / 8), 1)))), null, c.value()));
                }
            }
            fleet.flush();
            fleet.start("preemption", "preemption-1");
            fleet.start("preemption", "preemption-2");
            fleet.awaitOwners("preemption", Set.of("preemption-1", "preemption-2"), TopicCatalog.WORKLOAD_PARTITIONS);
            Set<Integer> moved = fleet.owners("preemption").get("preemption-2");
            List<ClusterArn> movedClusters = clustersOf(fleet, moved);
            // Both decide in every cluster before the kill (one eviction each), and the survivor's standbys are caught up.
            int[] probe = {0};
            for (ClusterArn c : fleet.clusters) request(fleet, c, "warm-" + probe[0]++, t0);
            fleet.flush();
            await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200))
                    .until(() -> fleet.readAll(fleet.admissionTopics.preempted()).size() >= CLUSTERS);
            if (Boolean.parseBoolean(System.getProperty("taskgov.bench.await-standbys", "true"))) {
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> moved.stream()
                        .allMatch(n -> fleet.logContains("preemption-1", "warm standby of partition " + n + " caught up")));
            }
            int before = fleet.readAll(fleet.admissionTopics.preempted()).size();
            Instant killed = Instant.now();
            fleet.kill9("preemption-2");
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            Long first = null;
            while (first == null && System.nanoTime() < deadline) {
                for (ClusterArn c : movedClusters) request(fleet, c, "probe-" + probe[0]++, t0);
                fleet.flush();
                first = fleet.readAll(fleet.admissionTopics.preempted()).stream()
                        .filter(r -> r.timestamp() >= killed.toEpochMilli())
                        .map(ConsumerRecord::timestamp).min(Long::compare).orElse(null);
            }
            return String.format("preemption failover (2 deciders, session 1 s, heartbeat 250 ms): kill -9 -> first eviction in "
                            + "a moved cluster %d ms (partitions moved %s, %d clusters, %d evictions before); killed at %s (UTC)%n%s",
                    first == null ? -1 : first - killed.toEpochMilli(), moved, movedClusters.size(), before, killed,
                    timeline(fleet.logs().resolve("preemption-1.log"), killed));
        }
    }

    /** The fleet's clusters whose records are on these partitions. */
    private static List<ClusterArn> clustersOf(DeciderFleet fleet, Set<Integer> partitions) {
        return fleet.clusters.stream()
                .filter(c -> partitions.contains(ClusterPartitions.of(c.value(), TopicCatalog.WORKLOAD_PARTITIONS))).toList();
    }

    /** A preemption request for a one-accelerator inference workload (priority 90) of team-a in {@code cluster}. */
    private static void request(DeciderFleet fleet, ClusterArn cluster, String id, Instant t0) {
        WorkloadSubmitted w = DeciderFleet.workload(cluster, id, "team-a", 1, t0.plusSeconds(60));
        WorkloadSubmitted preemptor = new WorkloadSubmitted(id, w.namespace(), w.queueName(), "inference-priority", w.jobKind(),
                w.submittedAt(), w.podSets(), cluster.value());
        int partition = ClusterPartitions.of(cluster.value(), TopicCatalog.WORKLOAD_PARTITIONS);
        fleet.publishToPartition(fleet.admissionTopics.submitted(), partition, id, preemptor);
        fleet.publishRequest(partition, id, new PreemptionRequested(id, "team-a", 90, preemptor, Map.of(), "probe",
                Instant.now(), cluster.value()));
    }

    /**
     * The survivor's log lines from the kill on, each with its time after the kill in ms: when the group told it
     * (assignment), and how long each part of the takeover took (the decider's own log lines time them).
     */
    private static String timeline(Path log, Instant killed) throws IOException {
        java.time.LocalTime kill = java.time.LocalTime.ofInstant(killed, java.time.ZoneOffset.UTC);
        StringBuilder out = new StringBuilder();
        for (String line : Files.readAllLines(log)) {
            if (line.length() < 12 || line.charAt(2) != ':' || line.charAt(8) != '.') continue;
            java.time.LocalTime at;
            try {
                at = java.time.LocalTime.parse(line.substring(0, 12));
            } catch (java.time.format.DateTimeParseException e) {
                continue;
            }
            long after = Duration.between(kill, at).toMillis();
            if (after < 0 || after > 60_000) continue;
            out.append(String.format("  +%5d ms %s%n", after, line.substring(13)));
        }
        return out.toString();
    }

    /** CPU time (user + system) of the decider processes so far, from /proc (Linux; clock ticks of 10 ms). */
    private static long cpuMillis(DeciderFleet fleet, Set<String> names) throws IOException {
        long ticks = 0;
        for (String name : names) {
            String stat = Files.readString(Path.of("/proc", Long.toString(fleet.pid(name)), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            ticks += Long.parseLong(f[11]) + Long.parseLong(f[12]); // utime, stime (fields 14 and 15)
        }
        return ticks * 10;
    }
}
