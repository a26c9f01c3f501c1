package dev.taskgov.admission;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.core.topology.TopologyLevels;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.CloudEventHeaders;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The live decider on a real broker as the cluster changes: a node record with {@code ready: false}
 * moves the pods (a NodeReplaced admission), a node tombstone without room evicts (NodeFailure), a
 * quota tombstone evicts (QuotaRemoved); the workload is pending at once, each eviction is handed to
 * preemption-service (here its stand-in) on {@code taskgov.preemption.requested}, on the cluster's
 * partition, and appears on {@code taskgov.workload.preempted} without a preemptor; the workload's
 * history names the node or the quota.
 */
class ClusterChangesLiveTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void nodeFailureReplacesThenEvictsAndQuotaTombstoneEvicts() {
        try (LiveCluster c = new LiveCluster("cluster-changes")) {
            DeciderTopics t = c.topics;
            Fixtures.cluster(c, 3, Map.of("team-a", 16L, "team-b", 8L));
            List<String> changes = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            AdmissionDecider decider = c.startDecider(Clock.systemUTC(), new AdmissionObserver() {
                public void admitted(dev.taskgov.core.cluster.ClusterArn cluster, String team, String priorityClass, java.time.Duration waited) {
                }

                public void finished(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
                }

                public void preemptionRequested(dev.taskgov.core.cluster.ClusterArn cluster, String team) {
                }

                public void deadLettered(String topic, dev.taskgov.service.support.DeadLetterMetrics.Reason reason) {
                }

                public void rejected(dev.taskgov.core.cluster.ClusterArn cluster, String team, String reason) {
                }

                @Override
                public void clusterChanged(dev.taskgov.core.cluster.ClusterArn cluster, String team, String outcome) {
                    changes.add(team + " " + outcome);
                }
            });
            PreemptionStandIn standIn = new PreemptionStandIn(c);
            c.own(standIn);
            c.awaitQuiet(decider, standIn);

            // 8 pods fill node-0 (best fit); b's 8 pods fill node-1
            c.publish(t.submitted(), "a-1", Fixtures.workload("a-1", "team-a", 8, T0), true);
            c.awaitQuiet(decider, standIn);
            c.publish(t.submitted(), "b-1", Fixtures.workload("b-1", "team-b", 8, T0.plusSeconds(1)), true);
            c.awaitQuiet(decider, standIn);
            String first = node(decider, "a-1");

            // its node fails: the 8 pods move to the one free node
            c.publish(t.topology(), first, nodeRecord(first, false), true);
            c.awaitQuiet(decider, standIn);
            WorkloadRecord a1 = decider.processor().workload("a-1").orElseThrow();
            assertThat(a1.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(a1.reason()).isEqualTo("NodeReplaced");
            assertThat(a1.message()).startsWith("node " + first + " is not ready; its pods there moved to ");
            String second = node(decider, "a-1");
            assertThat(second).isNotEqualTo(first);
            List<WorkloadAdmitted> admissions = c.readAll(t.admitted()).stream()
                    .map(r -> EventCodec.read(r.value(), WorkloadAdmitted.class)).filter(a -> a.workloadId().equals("a-1")).toList();
            assertThat(admissions).extracting(WorkloadAdmitted::reason).containsExactly(null, "NodeReplaced");

            // that node leaves too: no room anywhere, evicted without a preemptor
            c.publish(t.topology(), second, null, true);
            c.awaitQuiet(decider, standIn);
            assertThat(decider.processor().workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Pending);
            WorkloadPreempted evicted = preempted(c, "a-1");
            assertThat(evicted.reason()).isEqualTo(PreemptionReason.NodeFailure);
            assertThat(evicted.preemptorWorkloadId()).isNull();
            assertThat(evicted.message()).startsWith("node " + second + " left the cluster");
            // admission decided it and handed it over: on the requests topic with its own type, on the cluster's partition
            List<ConsumerRecord<String, byte[]>> handed = c.readAll(t.preemptionRequested()).stream()
                    .filter(r -> EvictionDecided.TYPE.equals(CloudEventHeaders.text(r.headers(), CloudEvents.TYPE))).toList();
            assertThat(handed).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("a-1");
                assertThat(r.partition()).isEqualTo(c.homePartition(t.preemptionRequested()));
                assertThat(EventCodec.read(r.value(), EvictionDecided.class).toEvent()).isEqualTo(evicted);
            });

            // team-b's quota is deleted: its running workload is evicted, naming the quota
            c.publish(t.quota(), "team-b", null, true);
            c.awaitQuiet(decider, standIn);
            WorkloadRecord b1 = decider.processor().workload("b-1").orElseThrow();
            assertThat(b1.state()).isEqualTo(WorkloadState.Pending);
            assertThat(b1.message()).startsWith("evicted (QuotaRemoved): the compute quota of team team-b (team-b-quota) was deleted");
            assertThat(preempted(c, "b-1").reason()).isEqualTo(PreemptionReason.QuotaRemoved);

            // with team-b's node free again a-1 is admitted there: the eviction read back changed nothing
            assertThat(decider.processor().workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
            // what taskgov_admission_cluster_changes_total counts
            assertThat(changes).containsExactly("team-a NodeReplaced", "team-a NodeFailure", "team-b QuotaRemoved");
        }
    }

    /** The one node the workload's pods are on. */
    private static String node(AdmissionDecider decider, String id) {
        List<WorkloadAdmitted.NodeCount> nodes = decider.processor().workload(id).orElseThrow().placement().get(0).nodes();
        assertThat(nodes).hasSize(1);
        return nodes.get(0).name();
    }

    private static NodeRecord nodeRecord(String name, boolean ready) {
        int i = Integer.parseInt(name.substring("node-".length()));
        return new NodeRecord(name, "i-" + i, Fixtures.TYPE, Map.of(
                TopologyLevels.LAYER_1, "nn-1", TopologyLevels.LAYER_2, "nn-1-" + (i / 8),
                TopologyLevels.LAYER_3, "nn-1-" + (i / 8) + "-" + (i / 4)), ResourceAmounts.of(Fixtures.NODE), ready);
    }

    private static WorkloadPreempted preempted(LiveCluster c, String id) {
        return c.readAll(c.topics.preempted()).stream().map(r -> EventCodec.read(r.value(), WorkloadPreempted.class))
                .filter(p -> p.workloadId().equals(id)).reduce((x, y) -> y).orElseThrow();
    }
}
