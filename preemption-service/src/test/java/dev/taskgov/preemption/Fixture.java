package dev.taskgov.preemption;

import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.PreemptionRequested;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.SchedulerConfig;
import dev.taskgov.core.model.TeamQuota;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.core.topology.Node;
import dev.taskgov.service.support.QuotaRecords;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Publishes cluster state as quota-, topology- and admission-service would. */
final class Fixture {

    static final String TYPE = "ml.g5.8xlarge";
    private final TestCluster cluster;
    private Instant clock = Instant.parse("2026-11-30T10:00:00Z");

    Fixture(TestCluster cluster) {
        this.cluster = cluster;
    }

    /** {@code count} nodes of {@link #TYPE} with {@code accelerators} each, names n1..nN, racks of 4 under one spine. */
    Fixture nodes(int count, int accelerators) {
        for (int i = 1; i <= count; i++) {
            Map<String, String> labels = Map.of("topology.k8s.aws/network-node-layer-1", "nn-1",
                    "topology.k8s.aws/network-node-layer-2", "nn-1-" + ((i - 1) / 16),
                    "topology.k8s.aws/network-node-layer-3", "nn-1-" + ((i - 1) / 4));
            Node n = new Node("n" + i, "i-" + i, TYPE, labels, Resources.of(accelerators, 32_000L * accelerators, 131_072L * accelerators), true);
            cluster.publish(cluster.topics.topology(), n.name(), NodeRecord.of(n));
        }
        return this;
    }

    Fixture config(Map<String, Integer> classes, boolean fairShare) {
        cluster.publish(cluster.topics.quota(), QuotaRecords.SCHEDULER_CONFIG_KEY,
                QuotaRecords.schedulerConfig(new SchedulerConfig(classes, fairShare)));
        return this;
    }

    Fixture quota(String team, int accelerators, int borrowLimit) {
        TeamQuota q = TeamQuota.of(team, Map.of(TYPE, Resources.of(accelerators, 0, 0))).withBorrowLimit(borrowLimit);
        cluster.publish(cluster.topics.quota(), team, QuotaRecords.effectiveQuota(q));
        return this;
    }

    static WorkloadSubmitted workload(String id, String team, String priorityClass, int pods) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue", priorityClass,
                "PyTorchJob", null, List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, null, null), null, null)));
    }

    WorkloadSubmitted submit(String id, String team, String priorityClass, int pods) {
        return submit(cluster.topics.submitted(), id, team, priorityClass, pods);
    }

    /** Submits on {@code topic} (a team's own submission topic, say). */
    WorkloadSubmitted submit(String topic, String id, String team, String priorityClass, int pods) {
        clock = clock.plusSeconds(1);
        WorkloadSubmitted s = workload(id, team, priorityClass, pods).withSubmittedAt(clock);
        cluster.publish(topic, id, s);
        return s;
    }

    /** Submits and admits it on the given nodes (one pod per listed node occurrence). */
    void running(String id, String team, String priorityClass, String... nodes) {
        submit(id, team, priorityClass, nodes.length);
        admit(id, team, nodes);
    }

    void admit(String id, String team, String... nodes) {
        clock = clock.plusSeconds(1);
        Map<String, Integer> perNode = new java.util.TreeMap<>();
        for (String n : nodes) perNode.merge(n, 1, Integer::sum);
        List<WorkloadAdmitted.NodeCount> counts = new ArrayList<>();
        perNode.forEach((n, c) -> counts.add(new WorkloadAdmitted.NodeCount(n, c)));
        cluster.publish(cluster.topics.admitted(), id, new WorkloadAdmitted(id, team, clock, Map.of(),
                List.of(new WorkloadAdmitted.AdmittedPodSet("worker", TYPE, null, counts))));
    }

    void finish(String id) {
        clock = clock.plusSeconds(1);
        cluster.publish(cluster.topics.finished(), id, new WorkloadFinished(id, clock, WorkloadFinished.Outcome.Succeeded));
    }

    static PreemptionRequested request(WorkloadSubmitted s, int priority) {
        return new PreemptionRequested(s.workloadId(), s.team(), priority, s, Map.of(), "needs room", Instant.now());
    }

    void requestPreemption(WorkloadSubmitted s, int priority) {
        cluster.publish(cluster.topics.preemptionRequested(), s.workloadId(), request(s, priority), PreemptionRequested.TYPE);
    }
}
