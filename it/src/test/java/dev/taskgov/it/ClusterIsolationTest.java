package dev.taskgov.it;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.admission.AdmissionReads;
import dev.taskgov.admission.WorkloadRecord;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadStatus;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.RejectReason;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.service.support.QuotaRecords;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two clusters in one deployment, with the same team names and the same node names, through the real
 * admission and preemption deciders on a real broker: quota, policy, cohort, capacity and preemption never
 * cross. Including the second-cluster experiment: a scheduler config for a second cluster (classes
 * inference and training only) does not replace the first cluster's policy, so the first cluster's
 * {@code experiment} workloads are still admitted.
 */
class ClusterIsolationTest {

    static final ClusterArn DEMO = ClusterArn.of("arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1");
    static final ClusterArn SMALL = ClusterArn.of("arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovsmall");
    static final String P5 = "ml.p5.48xlarge";

    @Test
    void twoClustersWithTheSameTeamsNeverShareQuotaPolicyCohortCapacityOrPreemption() {
        try (LiveServices live = new LiveServices("clusters")) {
            var t = live.admissionTopics;
            // the demo cluster: 4 nodes (32 accelerators), classes experiment/training/inference
            declare(live, DEMO, 4);
            live.publish(t.quota(), QuotaRecords.schedulerConfigKey(DEMO), QuotaRecords.schedulerConfig(new SchedulerConfig(
                    ordered("experiment", 10, "training", 50, "inference", 90), true)));
            live.publish(t.quota(), QuotaRecords.quotaKey(DEMO, "team-a"), quota("team-a", 16));
            live.publish(t.quota(), QuotaRecords.quotaKey(DEMO, "team-b"), quota("team-b", 16));
            // the second cluster, as the experiment created it: 2 nodes with the same names, the same
            // team names, and a policy that knows only inference and training
            declare(live, SMALL, 2);
            live.publish(t.quota(), QuotaRecords.schedulerConfigKey(SMALL), QuotaRecords.schedulerConfig(new SchedulerConfig(
                    ordered("inference", 90, "training", 50), true)));
            live.publish(t.quota(), QuotaRecords.quotaKey(SMALL, "team-a"), quota("team-a", 8));
            live.publish(t.quota(), QuotaRecords.quotaKey(SMALL, "team-b"), quota("team-b", 8));
            live.startAdmission();
            live.startPreemption(Map.of());
            live.awaitQuiet();
            // Each cluster is decided by the processor of its partition: every read goes to the cluster's own.
            Map<ClusterArn, AdmissionReads> deciders = Map.of(DEMO, deciderOf(live, DEMO), SMALL, deciderOf(live, SMALL),
                    ClusterArn.UNNAMED, deciderOf(live, ClusterArn.UNNAMED));
            assertThat(deciders.get(DEMO).governed()).containsExactly(DEMO, SMALL);
            assertThat(deciders.get(SMALL).governed()).containsExactly(DEMO, SMALL);

            // policy: the demo cluster still knows experiment; the second cluster does not
            submit(live, "a-exp-1", DEMO, "team-a", "experiment-priority", 1);
            submit(live, "a-exp-2", DEMO, "team-a", "experiment-priority", 1);
            submit(live, "b-exp", SMALL, "team-a", "experiment-priority", 1);
            live.awaitQuiet();
            assertState(deciders.get(DEMO), "a-exp-1", WorkloadState.Admitted, null);
            assertState(deciders.get(DEMO), "a-exp-2", WorkloadState.Admitted, null);
            assertState(deciders.get(SMALL), "b-exp", WorkloadState.Rejected, RejectReason.UnknownPriorityClass.name());
            assertThat(deciders.get(SMALL).workload("b-exp").orElseThrow().message()).contains("experiment").contains("[inference, training]");

            // a submission that names no cluster, while the deployment governs two, is refused naming the field
            live.publish(t.submitted(), "nowhere", submission("nowhere", null, "team-a", "training-priority", 1));
            live.awaitQuiet();
            assertState(deciders.get(ClusterArn.UNNAMED), "nowhere", WorkloadState.Rejected, RejectReason.UnknownCluster.name());
            assertThat(deciders.get(ClusterArn.UNNAMED).workload("nowhere").orElseThrow().message()).startsWith("clusterArn: is required")
                    .contains(DEMO.value()).contains(SMALL.value());

            // quota: team-a uses all of its demo nominal (16), and still has its own 8 in the second cluster
            submit(live, "b-train", SMALL, "team-a", "training-priority", 1);
            submit(live, "b-team-b", SMALL, "team-b", "training-priority", 1);
            live.awaitQuiet();
            assertState(deciders.get(SMALL), "b-train", WorkloadState.Admitted, null);
            assertState(deciders.get(SMALL), "b-team-b", WorkloadState.Admitted, null);

            // cohort and capacity: the demo cluster has 16 idle accelerators and team-b there lends 16, but the
            // second cluster is full: team-a waits there
            submit(live, "b-more", SMALL, "team-a", "training-priority", 1);
            live.awaitQuiet();
            assertState(deciders.get(SMALL), "b-more", WorkloadState.Pending, null);
            // ... while in the demo cluster team-a borrows from its own cohort
            submit(live, "a-borrow", DEMO, "team-a", "experiment-priority", 1);
            live.awaitQuiet();
            assertState(deciders.get(DEMO), "a-borrow", WorkloadState.Admitted, null);

            // preemption: an inference workload of team-a in the second cluster evicts team-a's training work there,
            // never the lower-priority experiment work of the team of the same name in the demo cluster
            submit(live, "b-urgent", SMALL, "team-a", "inference-priority", 1);
            live.awaitQuiet();
            assertState(deciders.get(SMALL), "b-urgent", WorkloadState.Admitted, null);
            List<WorkloadPreempted> preempted = live.readAll(t.preempted()).stream()
                    .map(r -> EventCodec.read(r.value(), WorkloadPreempted.class)).toList();
            assertThat(preempted).extracting(WorkloadPreempted::workloadId).containsExactly("b-train");
            assertThat(preempted).extracting(WorkloadPreempted::clusterArn).containsOnly(SMALL.value());
            for (String id : List.of("a-exp-1", "a-exp-2", "a-borrow")) assertState(deciders.get(DEMO), id, WorkloadState.Admitted, null);

            // every record names its workload's cluster; admitted placements stay on their cluster's nodes
            Map<String, String> clusterOf = new TreeMap<>();
            for (ConsumerRecord<String, byte[]> r : live.readAll(t.admitted())) {
                WorkloadAdmitted a = EventCodec.read(r.value(), WorkloadAdmitted.class);
                clusterOf.put(a.workloadId(), a.clusterArn());
                int nodes = a.clusterArn().equals(DEMO.value()) ? 4 : 2;
                a.podSets().forEach(ps -> ps.nodes().forEach(n -> assertThat(Integer.parseInt(n.name().substring(1))).isBetween(1, nodes)));
            }
            assertThat(clusterOf).containsEntry("a-exp-1", DEMO.value()).containsEntry("a-borrow", DEMO.value())
                    .containsEntry("b-train", SMALL.value()).containsEntry("b-urgent", SMALL.value());
            for (ConsumerRecord<String, byte[]> r : live.readAll(t.status())) {
                WorkloadStatus s = EventCodec.read(r.value(), WorkloadStatus.class);
                if (s.workloadId().startsWith("a-")) assertThat(s.clusterArn()).as(s.workloadId()).isEqualTo(DEMO.value());
                if (s.workloadId().startsWith("b-")) assertThat(s.clusterArn()).as(s.workloadId()).isEqualTo(SMALL.value());
            }
            // the two policies are two records on the quota topic; neither replaced the other
            assertThat(live.readAll(t.quota()).stream().map(ConsumerRecord::key))
                    .contains(ClusterScopedKey.schedulerConfig(DEMO), ClusterScopedKey.schedulerConfig(SMALL));
            assertThat(deciders.get(DEMO).summary(DEMO).orElseThrow().priorityClasses()).containsKeys("experiment", "training", "inference");
            assertThat(deciders.get(SMALL).summary(SMALL).orElseThrow().priorityClasses()).containsOnlyKeys("inference", "training");
            assertThat(deciders.get(DEMO).summary(DEMO).orElseThrow().used().get(P5).accelerators()).isEqualByComparingTo("24");
            assertThat(deciders.get(SMALL).summary(SMALL).orElseThrow().used().get(P5).accelerators()).isEqualByComparingTo("16");
        }
    }

    /** The processor deciding for {@code cluster} (the one of its partition), once the decider has rebuilt it. */
    private static AdmissionReads deciderOf(LiveServices live, ClusterArn cluster) {
        return live.admission.readsFor(cluster).orElseThrow(() -> new AssertionError("no decider for " + cluster));
    }

    private static void declare(LiveServices live, ClusterArn cluster, int nodes) {
        live.publish(live.admissionTopics.topology(), ClusterScopedKey.declaration(cluster),
                new ClusterDeclared(cluster.value(), cluster.shortId(), "static", null));
        for (int i = 1; i <= nodes; i++) {
            String name = "n" + i;
            Map<String, String> labels = new TreeMap<>(Map.of("topology.k8s.aws/network-node-layer-1", "nn-1",
                    "topology.k8s.aws/network-node-layer-2", "nn-2", "topology.k8s.aws/network-node-layer-3", "nn-3-" + (i + 1) / 2,
                    "kubernetes.io/hostname", name));
            NodeRecord n = new NodeRecord(name, "i-" + name, P5, labels,
                    new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(192), BigDecimal.valueOf(2048)), true,
                    cluster.value());
            live.publish(live.admissionTopics.topology(), ClusterScopedKey.of(cluster, name), n);
        }
    }

    private static ObjectNode quota(String team, int accelerators) {
        ObjectNode q = EventCodec.mapper().createObjectNode();
        ObjectNode config = q.putObject("ComputeQuotaConfig");
        config.putArray("ComputeQuotaResources").addObject().put("InstanceType", P5).put("Accelerators", accelerators);
        config.putObject("ResourceSharingConfig").put("Strategy", "LendAndBorrow").put("BorrowLimit", 50);
        config.put("PreemptTeamTasks", "LowerPriority");
        q.putObject("ComputeQuotaTarget").put("TeamName", team).put("FairShareWeight", 10);
        return q;
    }

    private static Map<String, Integer> ordered(Object... nameWeight) {
        Map<String, Integer> out = new LinkedHashMap<>();
        for (int i = 0; i < nameWeight.length; i += 2) out.put((String) nameWeight[i], (Integer) nameWeight[i + 1]);
        return out;
    }

    private static void submit(LiveServices live, String id, ClusterArn cluster, String team, String priorityClass, int pods) {
        live.publish(live.admissionTopics.submitted(), id, submission(id, cluster, team, priorityClass, pods));
    }

    private static WorkloadSubmitted submission(String id, ClusterArn cluster, String team, String priorityClass, int pods) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, null, priorityClass, "PyTorchJob", Instant.now(),
                List.of(new PodSetSpec("worker", pods, P5, new ResourceAmounts(BigDecimal.valueOf(8), null, null), null, null)),
                cluster == null ? null : cluster.value());
    }

    private static void assertState(AdmissionReads admission, String id, WorkloadState state, String reason) {
        WorkloadRecord r = admission.workload(id).orElseThrow(() -> new AssertionError("no record of " + id));
        assertThat(r.state()).as("%s: %s", id, r.message()).isEqualTo(state);
        if (reason != null) assertThat(r.reason()).as(id).isEqualTo(reason);
    }
}
