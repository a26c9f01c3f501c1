package dev.taskgov.it;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.AdmissionObserver;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.EvictionDecided;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.QuotaRecords;
import dev.taskgov.testsupport.FlatCluster;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The real admission and preemption deciders on a real broker as the cluster changes: a node record with
 * {@code ready: false} moves the pods (a NodeReplaced admission), a node tombstone without room evicts
 * (NodeFailure), a quota tombstone evicts (QuotaRemoved); the workload is pending at once, admission hands each
 * eviction to preemption-service on {@code taskgov.preemption.requested}, on the cluster's partition, and
 * preemption-service publishes it on {@code taskgov.workload.preempted} without a preemptor; the workload's
 * history names the node or the quota.
 */
class ClusterChangesLiveTest {

    static final Instant T0 = Instant.parse("2026-11-30T10:00:00Z");

    @Test
    void nodeFailureReplacesThenEvictsAndQuotaTombstoneEvicts() {
        try (LiveServices live = new LiveServices("cluster-changes")) {
            DeciderTopics t = live.admissionTopics;
            live.publish(t.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY, QuotaRecords.schedulerConfig(FlatCluster.SCHEDULER_CONFIG));
            Map.of("team-a", 16L, "team-b", 8L).forEach((team, acc) ->
                    live.publish(t.quota(), team, QuotaRecords.effectiveQuota(FlatCluster.quota(team, acc))));
            for (int i = 0; i < 3; i++) live.publish(t.topology(), "node-" + i, FlatCluster.node(i, true));
            List<String> changes = Collections.synchronizedList(new ArrayList<>());
            AdmissionDecider decider = live.startAdmission(new ChangeRecorder(changes));
            live.startPreemption(Map.of());
            live.awaitQuiet();

            // 8 pods fill node-0 (best fit); b's 8 pods fill node-1
            live.publish(t.submitted(), "a-1", FlatCluster.workload("a-1", "team-a", 8, T0));
            live.awaitQuiet();
            live.publish(t.submitted(), "b-1", FlatCluster.workload("b-1", "team-b", 8, T0.plusSeconds(1)));
            live.awaitQuiet();
            String first = node(decider, "a-1");

            // its node fails: the 8 pods move to the one free node
            live.publish(t.topology(), first, FlatCluster.node(FlatCluster.nodeIndex(first), false));
            live.awaitQuiet();
            WorkloadRecord a1 = decider.reads().workload("a-1").orElseThrow();
            assertThat(a1.state()).isEqualTo(WorkloadState.Admitted);
            assertThat(a1.reason()).isEqualTo("NodeReplaced");
            assertThat(a1.message()).startsWith("node " + first + " is not ready; its pods there moved to ");
            String second = node(decider, "a-1");
            assertThat(second).isNotEqualTo(first);
            List<WorkloadAdmitted> admissions = live.readAll(t.admitted()).stream()
                    .map(r -> EventCodec.read(r.value(), WorkloadAdmitted.class)).filter(a -> a.workloadId().equals("a-1")).toList();
            assertThat(admissions).extracting(WorkloadAdmitted::reason).containsExactly(null, "NodeReplaced");

            // that node leaves too: no room anywhere, evicted without a preemptor
            live.publish(t.topology(), second, null);
            live.awaitQuiet();
            assertThat(decider.reads().workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Pending);
            WorkloadPreempted evicted = preempted(live, "a-1");
            assertThat(evicted.reason()).isEqualTo(PreemptionReason.NodeFailure);
            assertThat(evicted.preemptorWorkloadId()).isNull();
            assertThat(evicted.message()).startsWith("node " + second + " left the cluster");
            // admission decided it and handed it over: on the requests topic with its own type, on the cluster's partition
            List<ConsumerRecord<String, byte[]>> handed = live.readAll(t.preemptionRequested()).stream()
                    .filter(r -> EvictionDecided.TYPE.equals(CloudEventHeaders.text(r.headers(), CloudEvents.TYPE))).toList();
            assertThat(handed).singleElement().satisfies(r -> {
                assertThat(r.key()).isEqualTo("a-1");
                assertThat(r.partition()).isEqualTo(live.partitionOf(t.preemptionRequested(), ClusterArn.UNNAMED));
                assertThat(EventCodec.read(r.value(), EvictionDecided.class).toEvent()).isEqualTo(evicted);
            });

            // team-b's quota is deleted: its running workload is evicted, naming the quota
            live.publish(t.quota(), "team-b", null);
            live.awaitQuiet();
            WorkloadRecord b1 = decider.reads().workload("b-1").orElseThrow();
            assertThat(b1.state()).isEqualTo(WorkloadState.Pending);
            assertThat(b1.message()).startsWith("evicted (QuotaRemoved): the compute quota of team team-b (team-b-quota) was deleted");
            assertThat(preempted(live, "b-1").reason()).isEqualTo(PreemptionReason.QuotaRemoved);

            // with team-b's node free again a-1 is admitted there: the eviction read back changed nothing
            assertThat(decider.reads().workload("a-1").orElseThrow().state()).isEqualTo(WorkloadState.Admitted);
            // what taskgov_admission_cluster_changes_total counts
            assertThat(changes).containsExactly("team-a NodeReplaced", "team-a NodeFailure", "team-b QuotaRemoved");
            // each eviction is on the preempted topic once
            assertThat(live.readAll(t.preempted())).extracting(ConsumerRecord::key).containsExactly("a-1", "b-1");
        }
    }

    /** The one node the workload's pods are on. */
    private static String node(AdmissionDecider decider, String id) {
        List<WorkloadAdmitted.NodeCount> nodes = decider.reads().workload(id).orElseThrow().placement().get(0).nodes();
        assertThat(nodes).hasSize(1);
        return nodes.get(0).name();
    }

    private static WorkloadPreempted preempted(LiveServices live, String id) {
        return live.readAll(live.admissionTopics.preempted()).stream().map(r -> EventCodec.read(r.value(), WorkloadPreempted.class))
                .filter(p -> p.workloadId().equals(id)).reduce((x, y) -> y).orElseThrow();
    }

    /** Records what {@code taskgov_admission_cluster_changes_total} counts: "team outcome". */
    private record ChangeRecorder(List<String> changes) implements AdmissionObserver {
        public void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        public void finished(ClusterArn cluster, String team) {
        }

        public void preemptionRequested(ClusterArn cluster, String team) {
        }

        public void deadLettered(String topic, DeadLetterMetrics.Reason reason) {
        }

        public void rejected(ClusterArn cluster, String team, String reason) {
        }

        @Override
        public void clusterChanged(ClusterArn cluster, String team, String outcome) {
            changes.add(team + " " + outcome);
        }
    }
}
