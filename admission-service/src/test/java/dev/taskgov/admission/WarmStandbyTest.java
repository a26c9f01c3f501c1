package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InputOffsets;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.PartitionScope;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A decider that takes a partition over from its warm standby (it followed the partition's changelog and the
 * quota and topology topics while another instance decided, then read only the tail after fencing it) holds
 * exactly what a rebuild from the changelog holds: every workload record, as the changelog has it.
 */
class WarmStandbyTest {

    private static final int WORKLOADS = 120;

    @Test
    void aTakeoverFromTheWarmStandbyHoldsWhatARebuildFromTheChangelogHolds() {
        try (LiveCluster c = new LiveCluster("standby")) {
            Fixtures.cluster(c, 10, Map.of("team-a", 40L, "team-b", 40L)); // 80 accelerators for 120 one-pod workloads
            AdmissionDecider first = c.startDecider(Clock.systemUTC());
            AdmissionDecider second = c.startDecider(Clock.systemUTC());
            int home = c.homePartition(c.topics.submitted());
            // One decides for the cluster, the other keeps a warm standby of its partition; both own partitions, so the
            // roles are final (one that has none yet keeps a standby of every partition, and may take the cluster's).
            await().atMost(Duration.ofMinutes(2)).until(() -> !first.ownedPartitions().isEmpty() && !second.ownedPartitions().isEmpty()
                    && (first.decidesDefaultCluster() && second.standbyPartitions().contains(home)
                    || second.decidesDefaultCluster() && first.standbyPartitions().contains(home)));
            AdmissionDecider active = first.decidesDefaultCluster() ? first : second;
            AdmissionDecider standby = active == first ? second : first;

            // A history: admissions, pending ones, finishes that free room and admit more (changelog records overwritten).
            Instant t0 = Instant.parse("2026-12-02T01:00:00Z");
            for (int i = 0; i < WORKLOADS; i++) {
                c.publishAsync(c.topics.submitted(), "w-" + i, Fixtures.workload("w-" + i, i % 2 == 0 ? "team-a" : "team-b", 1,
                        t0.plusMillis(i)));
            }
            c.flush();
            c.awaitQuiet(List.of(active, standby));
            for (int i = 0; i < 30; i++) {
                c.publishAsync(c.topics.finished(), "w-" + i, new WorkloadFinished("w-" + i, t0.plusSeconds(60),
                        WorkloadFinished.Outcome.Succeeded));
            }
            c.flush();
            c.awaitQuiet(List.of(active, standby));
            await().atMost(Duration.ofMinutes(1)).until(() -> standby.standbyPartitions().contains(home));
            long warmBefore = standby.warmTakeovers();

            active.close();
            AdmissionDecider taken = c.awaitQuiet(List.of(standby));

            assertThat(taken).isSameAs(standby);
            assertThat(standby.warmTakeovers()).as("taken over from the warm standby, not rebuilt").isGreaterThan(warmBefore);
            // The records as held (reads would add pending workloads' live figures, not written before the next refresh);
            // that refresh may also write between the two reads, so they are read again until they agree.
            PartitionScope scope = new PartitionScope(home, standby.inputPartitions());
            await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                    assertThat(standby.reads().held(ClusterArn.UNNAMED)).isEqualTo(rebuildFromChangelog(c, scope)));
            Map<String, WorkloadRecord> held = standby.reads().held(ClusterArn.UNNAMED);
            assertThat(held).hasSize(WORKLOADS);
            assertThat(held.values().stream().collect(Collectors.groupingBy(WorkloadRecord::state, Collectors.counting())))
                    .isEqualTo(Map.of(WorkloadState.Finished, 30L, WorkloadState.Admitted, 80L, WorkloadState.Pending, 10L));
        }
    }

    /** What a cold rebuild restores: the latest changelog record of each workload of the partition's clusters. */
    private static Map<String, WorkloadRecord> rebuildFromChangelog(LiveCluster c, PartitionScope scope) {
        Map<String, WorkloadRecord> out = new TreeMap<>();
        CompactedTopicReader.latestByKey(c.client, c.topics.changelog(), Duration.ofMinutes(1),
                scope.filter()).forEach((id, bytes) -> {
            if (InputOffsets.isKey(id)) return; // the loop's, not a workload
            WorkloadRecord r = EventCodec.read(bytes, WorkloadRecord.class);
            if (scope.owns(r.cluster().value())) out.put(id, r);
        });
        return out;
    }
}
