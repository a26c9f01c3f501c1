package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.WorkloadCluster;
import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.WorkloadValidation;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.scheduling.WorkloadView;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.testsupport.FlatCluster;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance that decides for every partition answers reads from its deciding states, each of which holds the
 * workloads of its own partition's clusters only ({@link PartitionedReads}); the oracle is the read replica, one
 * state holding every cluster's committed records: after the decider settles, every read answers alike.
 */
class PartitionedReadsTest {

    private static final Instant T0 = Instant.parse("2026-12-01T10:00:00Z");
    private static final List<String> TEAMS = List.of("team-a", "team-b");

    @Test
    void theDecidingStatesOfEveryPartitionAnswerEveryReadAsTheReadReplicaDoes() {
        try (LiveCluster c = new LiveCluster("partitioned-reads")) {
            List<ClusterArn> clusters = clustersOnDistinctPartitions(3);
            for (ClusterArn cluster : clusters) declare(c, cluster);
            List<String> ids = new ArrayList<>();
            for (int k = 0; k < clusters.size(); k++) {
                ClusterArn cluster = clusters.get(k);
                // 16 accelerators per cluster, 8 of quota per team: some run, some borrow, some wait
                int[] pods = {6, 4, 8, 3, 5};
                for (int i = 0; i < pods.length; i++) {
                    String id = "w-" + k + "-" + i;
                    ids.add(id);
                    WorkloadSubmitted w = Fixtures.workload(id, TEAMS.get(i % 2), pods[i], T0.plusSeconds(i))
                            .withClusterArn(cluster.value());
                    c.publish(c.topics.submitted(), id, w, true);
                }
            }
            AdmissionDecider decider = c.startDecider(Clock.systemUTC());
            AdmissionReplica replica = new AdmissionReplica(c.client, c.topics, Duration.ofMillis(50), Clock.systemUTC());
            c.own(replica);
            replica.start();
            await().atMost(Duration.ofMinutes(2)).until(() -> decider.isDecider()
                    && decider.allReads().size() == TopicCatalog.WORKLOAD_PARTITIONS);

            await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
                WorkloadReads own = PartitionedReads.of(decider.allReads());
                AdmissionReads oracle = replica.reads().orElseThrow();
                for (String id : ids) {
                    assertThat(own.workload(id)).as(id).isPresent().isEqualTo(oracle.workload(id));
                }
                assertThat(own.workload("nobody")).isEmpty();
                assertThat(own.workloads(null, null, null)).isEqualTo(oracle.workloads(null, null, null)).hasSize(ids.size());
                assertThat(own.workloads(null, "team-a", WorkloadState.Pending))
                        .isEqualTo(oracle.workloads(null, "team-a", WorkloadState.Pending));
                assertThat(own.governed()).isEqualTo(oracle.governed()).containsExactlyInAnyOrderElementsOf(clusters);
                assertThat(own.clusterOf((String) null)).isEqualTo(oracle.clusterOf((String) null))
                        .isInstanceOf(WorkloadCluster.Refused.class);
                for (ClusterArn cluster : clusters) {
                    assertThat(own.workloads(cluster, null, null)).as(cluster.value())
                            .isEqualTo(oracle.workloads(cluster, null, null)).hasSize(5);
                    assertThat(own.summary(cluster)).isEqualTo(oracle.summary(cluster)).isPresent();
                    assertThat(own.quotas(cluster)).isEqualTo(oracle.quotas(cluster)).hasSize(2);
                    assertThat(own.teams(cluster)).isEqualTo(oracle.teams(cluster));
                    assertThat(own.clusterOf(cluster.value())).isEqualTo(new WorkloadCluster.Chosen(cluster));
                    for (String team : TEAMS) {
                        List<WorkloadView> queue = own.queue(cluster, team);
                        List<WorkloadView> expected = oracle.queue(cluster, team);
                        assertThat(queue).extracting(WorkloadView::workloadId)
                                .isEqualTo(expected.stream().map(WorkloadView::workloadId).toList());
                        assertThat(queue).extracting(WorkloadView::reason)
                                .isEqualTo(expected.stream().map(WorkloadView::reason).toList());
                    }
                    WorkloadSubmitted probe = Fixtures.workload("probe", "team-b", 2, T0.plusSeconds(60))
                            .withClusterArn(cluster.value());
                    assertThat(own.dryRun(probe).verdict()).isEqualTo(oracle.dryRun(probe).verdict());
                    assertThat(own.validate(probe)).isInstanceOf(WorkloadValidation.Valid.class);
                }
            });
            Set<String> pending = new TreeSet<>();
            PartitionedReads.of(decider.allReads()).workloads(null, null, WorkloadState.Pending)
                    .forEach(r -> pending.add(r.workloadId()));
            assertThat(pending).as("the clusters are full: each has workloads waiting").hasSizeGreaterThanOrEqualTo(3);
        }
    }

    /** The first {@code n} cluster ids whose records live on {@code n} different partitions of the inputs. */
    private static List<ClusterArn> clustersOnDistinctPartitions(int n) {
        List<ClusterArn> out = new ArrayList<>();
        Set<Integer> used = new TreeSet<>();
        for (int i = 0; out.size() < n; i++) {
            ClusterArn arn = ClusterArn.of(String.format("arn:aws:sagemaker:us-east-1:123456789012:cluster/reads%07d", i));
            if (used.add(ClusterPartitions.of(arn.value(), TopicCatalog.WORKLOAD_PARTITIONS))) out.add(arn);
        }
        return out;
    }

    /** The scheduler config, a quota of 8 accelerators per team and two nodes of 8, all in {@code cluster}. */
    private static void declare(LiveCluster c, ClusterArn cluster) {
        c.publish(c.topics.quota(), QuotaRecords.schedulerConfigKey(cluster),
                QuotaRecords.schedulerConfig(FlatCluster.SCHEDULER_CONFIG), false);
        for (String team : TEAMS) {
            c.publish(c.topics.quota(), QuotaRecords.quotaKey(cluster, team),
                    QuotaRecords.effectiveQuota(FlatCluster.quota(team, 8)), false);
        }
        for (int i = 0; i < 2; i++) {
            c.publish(c.topics.topology(), cluster.value() + "#node-" + i, FlatCluster.node(i, true).withClusterArn(cluster.value()), true);
        }
    }
}
