package dev.taskgov.topology.capacity;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.resources.Resources;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * What admitted workloads hold on each node: per-pod requests (from the submission) times the pods
 * placed on the node (from the admission). The topics arrive in any order, so requests and
 * placements are joined when asked; a finish is final and a preemption releases the admission it
 * follows (by time), so a late admission record cannot hold capacity again. Thread-safe.
 */
public final class WorkloadHolds {

    /** Pods of one pod set per node. */
    public record PodSetPlacement(String podSet, Map<String, Integer> podsPerNode) {
        public PodSetPlacement {
            podsPerNode = Map.copyOf(podsPerNode);
        }
    }

    private record Admission(Instant admittedAt, List<PodSetPlacement> podSets, ClusterArn cluster) {
    }

    private final Map<String, Map<String, Resources>> requestsByWorkload = new HashMap<>();
    private final Map<String, Admission> admissions = new HashMap<>();
    private final Map<String, Instant> lastPreemptedAt = new HashMap<>();
    private final Set<String> finished = new HashSet<>();

    /**
     * Runs {@code changes} (calls of the methods below) under the lock the reads take: one lock for a whole batch of
     * workload events, and a read sees all of the batch or none of it.
     */
    public synchronized void update(Consumer<WorkloadHolds> changes) {
        changes.accept(this);
    }

    /** The per-pod requests of each pod set, by pod set name. */
    public synchronized void submitted(String workloadId, Map<String, Resources> perPodRequests) {
        requestsByWorkload.put(workloadId, Map.copyOf(perPodRequests));
    }

    /** An admission; ignored when the workload has finished or was preempted after it. */
    public synchronized boolean admitted(String workloadId, Instant admittedAt, List<PodSetPlacement> podSets) {
        return admitted(workloadId, admittedAt, podSets, ClusterArn.UNNAMED);
    }

    /** An admission in a cluster (node names are a cluster's own); ignored when the workload finished or was preempted after it. */
    public synchronized boolean admitted(String workloadId, Instant admittedAt, List<PodSetPlacement> podSets, ClusterArn cluster) {
        if (finished.contains(workloadId)) {
            return false;
        }
        Instant preempted = lastPreemptedAt.get(workloadId);
        if (preempted != null && admittedAt != null && !admittedAt.isAfter(preempted)) {
            return false;
        }
        admissions.put(workloadId, new Admission(admittedAt, List.copyOf(podSets), cluster));
        return true;
    }

    /** A finish releases the workload for good. */
    public synchronized void finished(String workloadId) {
        finished.add(workloadId);
        admissions.remove(workloadId);
        requestsByWorkload.remove(workloadId);
    }

    /** A preemption releases the admission made before it; the workload may be admitted again later. */
    public synchronized void preempted(String workloadId, Instant preemptedAt) {
        Admission a = admissions.get(workloadId);
        if (a == null || preemptedAt == null || a.admittedAt() == null || !a.admittedAt().isAfter(preemptedAt)) {
            admissions.remove(workloadId);
        }
        if (preemptedAt != null) {
            lastPreemptedAt.merge(workloadId, preemptedAt, (x, y) -> x.isAfter(y) ? x : y);
        }
    }

    /** Resources held per node name in the unnamed cluster. Pod sets whose requests are not known yet hold nothing. */
    public synchronized Map<String, Resources> heldPerNode() {
        return heldPerNode(ClusterArn.UNNAMED);
    }

    /** Resources held per node name of one cluster. Pod sets whose requests are not known yet hold nothing. */
    public synchronized Map<String, Resources> heldPerNode(ClusterArn cluster) {
        Map<String, Resources> out = new TreeMap<>();
        admissions.forEach((workloadId, admission) -> {
            if (!admission.cluster().equals(cluster)) return;
            Map<String, Resources> requests = requestsByWorkload.getOrDefault(workloadId, Map.of());
            for (PodSetPlacement ps : admission.podSets()) {
                Resources perPod = requests.get(ps.podSet());
                if (perPod == null) continue;
                ps.podsPerNode().forEach((node, count) -> out.merge(node, perPod.times(count), Resources::plus));
            }
        });
        return out;
    }

    /** Ids of admitted workloads whose requests are not known yet (their submission was not seen). */
    public synchronized Set<String> admittedWithoutRequests() {
        Set<String> out = new HashSet<>();
        admissions.forEach((id, a) -> {
            Map<String, Resources> r = requestsByWorkload.get(id);
            if (r == null || a.podSets().stream().anyMatch(ps -> !r.containsKey(ps.podSet()))) out.add(id);
        });
        return out;
    }

    public synchronized int admittedCount() {
        return admissions.size();
    }
}
