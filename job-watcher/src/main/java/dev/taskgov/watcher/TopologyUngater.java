package dev.taskgov.watcher;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;

import com.fasterxml.jackson.core.type.TypeReference;

import org.jboss.logging.Logger;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;

/**
 * Gives each gated pod of a placed job its host, as Kueue's topology ungater does: the pod template
 * carries {@link JobEditor#NODE_ASSIGNMENT} ({node: pods}); a pod still holding the
 * {@link JobEditor#TOPOLOGY_GATE} gets a {@code kubernetes.io/hostname} node selector for a host whose
 * count is not used up yet (by the other live pods of its pod set), then loses the gate so the
 * scheduler binds it.
 *
 * <p>A pod set's pods are those of a batch Job (label {@code job-name}) or of one replica type of a
 * Kubeflow job (PyTorchJob, TFJob, MPIJob: labels {@code training.kubeflow.org/job-name} and
 * {@code training.kubeflow.org/replica-type}, or {@code training.kubeflow.org/job-role} as the MPI
 * operator writes it), each replica type having its own template and so its own assignment.
 */
final class TopologyUngater {
    private static final Logger LOG = Logger.getLogger(TopologyUngater.class);
    /** Label the Job controller puts on its pods. */
    static final String JOB_NAME_LABEL = "job-name";
    /** Labels the Kubeflow training operators put on their pods. */
    static final String KUBEFLOW_JOB_NAME_LABEL = "training.kubeflow.org/job-name";
    static final String KUBEFLOW_REPLICA_TYPE_LABEL = "training.kubeflow.org/replica-type";
    static final String KUBEFLOW_JOB_ROLE_LABEL = "training.kubeflow.org/job-role";

    private final KubernetesClient client;
    private final Executor worker;
    /** Hosts given by this ungater that the informer may not have seen yet (pod uid → host). */
    private final Map<String, String> given = new ConcurrentHashMap<>();
    private final java.util.List<SharedIndexInformer<Pod>> informers = new java.util.ArrayList<>();
    /** Told of every pod added or changed, after its ungating, on the worker (gang admission's readiness). */
    private final java.util.function.Consumer<Pod> changed;

    TopologyUngater(KubernetesClient client, Executor worker) {
        this(client, worker, pod -> { });
    }

    TopologyUngater(KubernetesClient client, Executor worker, java.util.function.Consumer<Pod> changed) {
        this.client = client;
        this.worker = worker;
        this.changed = changed;
    }

    void start() {
        // No OR between label keys in a selector: one informer per pod family.
        for (String label : java.util.List.of(JOB_NAME_LABEL, KUBEFLOW_JOB_NAME_LABEL)) {
            informers.add(client.pods().inAnyNamespace().withLabel(label).inform(new ResourceEventHandler<>() {
                @Override
                public void onAdd(Pod pod) {
                    worker.execute(() -> seen(pod));
                }

                @Override
                public void onUpdate(Pod old, Pod pod) {
                    worker.execute(() -> seen(pod));
                }

                @Override
                public void onDelete(Pod pod, boolean unknownFinalState) {
                    given.remove(pod.getMetadata().getUid());
                }
            }));
        }
    }

    void stop() {
        informers.forEach(SharedIndexInformer::close);
        informers.clear();
    }

    boolean synced() {
        return !informers.isEmpty() && informers.stream().allMatch(SharedIndexInformer::hasSynced);
    }

    /**
     * The pod set a pod belongs to: namespace, job and (for Kubeflow) replica type; {@code null} for
     * a pod of neither family.
     */
    static String podSetKey(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        String kubeflowJob = labels.get(KUBEFLOW_JOB_NAME_LABEL);
        if (kubeflowJob != null) {
            String replicaType = labels.get(KUBEFLOW_REPLICA_TYPE_LABEL);
            if (replicaType == null) replicaType = labels.get(KUBEFLOW_JOB_ROLE_LABEL);
            if (replicaType == null) return null;
            return pod.getMetadata().getNamespace() + "/kubeflow/" + kubeflowJob + "/" + replicaType.toLowerCase(java.util.Locale.ROOT);
        }
        String job = labels.get(JOB_NAME_LABEL);
        return job == null ? null : pod.getMetadata().getNamespace() + "/job/" + job;
    }

    private void seen(Pod pod) {
        ungate(pod);
        try {
            changed.accept(pod);
        } catch (RuntimeException e) {
            LOG.warnf(e, "pod %s/%s: %s", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), e.getMessage());
        }
    }

    /**
     * The live pods of a job (a batch Job's, or every replica type's of a Kubeflow job) as the informers have them,
     * each once; pods that ended (Succeeded, Failed) are left out.
     */
    java.util.List<Pod> podsOfJob(String namespace, String jobName) {
        String batch = namespace + "/job/" + jobName;
        String kubeflow = namespace + "/kubeflow/" + jobName + "/";
        java.util.Set<String> seen = new java.util.HashSet<>();
        java.util.List<Pod> out = new java.util.ArrayList<>();
        for (SharedIndexInformer<Pod> informer : informers) {
            for (Pod pod : informer.getStore().list()) {
                String key = podSetKey(pod);
                if (key == null || !(key.equals(batch) || key.startsWith(kubeflow))) continue;
                String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
                if ("Succeeded".equals(phase) || "Failed".equals(phase)) continue;
                if (seen.add(pod.getMetadata().getUid())) out.add(pod);
            }
        }
        return out;
    }

    /** The job a pod belongs to: its namespace and name, from the labels of its family; null for neither family. */
    static String[] jobOf(Pod pod) {
        Map<String, String> labels = pod.getMetadata().getLabels() == null ? Map.of() : pod.getMetadata().getLabels();
        String job = labels.getOrDefault(KUBEFLOW_JOB_NAME_LABEL, labels.get(JOB_NAME_LABEL));
        return job == null ? null : new String[] {pod.getMetadata().getNamespace(), job};
    }

    /** Whether the pod runs with its Ready condition true. */
    static boolean ready(Pod pod) {
        return pod.getStatus() != null && pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private void ungate(Pod pod) {
        // A pod seen by both informers (or twice) is given one host only.
        if (!gated(pod) || given.containsKey(pod.getMetadata().getUid())) return;
        String assignment = pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(JobEditor.NODE_ASSIGNMENT);
        if (assignment == null) return;
        Map<String, Integer> counts = jobAssignment(pod).orElseGet(() -> read(assignment));
        Optional<String> host = freeHost(pod, counts);
        if (host.isEmpty()) {
            LOG.debugf("pod %s/%s waits: every assigned host is used up", pod.getMetadata().getNamespace(), pod.getMetadata().getName());
            return;
        }
        try {
            client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName()).edit(p -> {
                if (p.getSpec().getNodeSelector() == null) p.getSpec().setNodeSelector(new LinkedHashMap<>());
                p.getSpec().getNodeSelector().put(TopologyLevels.HOSTNAME, host.get());
                p.getSpec().getSchedulingGates().removeIf(g -> JobEditor.TOPOLOGY_GATE.equals(g.getName()));
                return p;
            });
            given.put(pod.getMetadata().getUid(), host.get());
        } catch (KubernetesClientException e) {
            LOG.warnf("cannot ungate pod %s/%s: %s", pod.getMetadata().getNamespace(), pod.getMetadata().getName(), e.getMessage());
        }
    }

    /** The first host, in the placement's order, with fewer live pods of this pod set than its count. */
    private Optional<String> freeHost(Pod pod, Map<String, Integer> counts) {
        String podSet = podSetKey(pod);
        if (podSet == null) return Optional.empty();
        Map<String, Integer> used = new HashMap<>();
        java.util.Set<String> seen = new java.util.HashSet<>();
        for (SharedIndexInformer<Pod> informer : informers) {
            for (Pod other : informer.getStore().list()) {
                if (!seen.add(other.getMetadata().getUid())) continue;
                if (!podSet.equals(podSetKey(other))) continue;
                if (other.getMetadata().getUid().equals(pod.getMetadata().getUid())) continue;
                String phase = other.getStatus() == null ? null : other.getStatus().getPhase();
                if ("Succeeded".equals(phase) || "Failed".equals(phase)) continue;
                String host = other.getSpec().getNodeSelector() == null ? null : other.getSpec().getNodeSelector().get(TopologyLevels.HOSTNAME);
                if (host == null || gated(other)) host = given.get(other.getMetadata().getUid());
                if (host != null) used.merge(host, 1, Integer::sum);
            }
        }
        return counts.entrySet().stream().filter(e -> used.getOrDefault(e.getKey(), 0) < e.getValue())
                .map(Map.Entry::getKey).findFirst();
    }

    /**
     * The pod set's current placement from its job's {@link JobEditor#NODE_ASSIGNMENTS} (it changes
     * when a node fails; the pod's own annotation is the one of the admission): the controlling owner
     * of the pod, its pod set {@code main} for a batch Job, else its replica type.
     */
    private Optional<Map<String, Integer>> jobAssignment(Pod pod) {
        var owner = pod.getMetadata().getOwnerReferences() == null ? null : pod.getMetadata().getOwnerReferences().stream()
                .filter(o -> Boolean.TRUE.equals(o.getController())).findFirst().orElse(null);
        String key = podSetKey(pod);
        if (owner == null || key == null) return Optional.empty();
        String podSet = key.contains("/kubeflow/") ? key.substring(key.lastIndexOf('/') + 1) : "main";
        try {
            var job = client.genericKubernetesResources(owner.getApiVersion(), owner.getKind())
                    .inNamespace(pod.getMetadata().getNamespace()).withName(owner.getName()).get();
            String all = job == null || job.getMetadata().getAnnotations() == null ? null
                    : job.getMetadata().getAnnotations().get(JobEditor.NODE_ASSIGNMENTS);
            if (all == null) return Optional.empty();
            Map<String, Map<String, Integer>> byPodSet = EventCodec.mapper().readValue(all,
                    new TypeReference<LinkedHashMap<String, Map<String, Integer>>>() { });
            return Optional.ofNullable(byPodSet.get(podSet)).map(m -> (Map<String, Integer>) new LinkedHashMap<>(m));
        } catch (KubernetesClientException | java.io.IOException e) {
            LOG.debugf("no current placement for pod %s/%s from its job: %s", pod.getMetadata().getNamespace(),
                    pod.getMetadata().getName(), e.getMessage());
            return Optional.empty();
        }
    }

    private static boolean gated(Pod pod) {
        return pod.getSpec() != null && pod.getSpec().getSchedulingGates() != null
                && pod.getSpec().getSchedulingGates().stream().anyMatch(g -> JobEditor.TOPOLOGY_GATE.equals(g.getName()));
    }

    private static Map<String, Integer> read(String json) {
        try {
            return EventCodec.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Integer>>() { });
        } catch (Exception e) {
            return Map.of();
        }
    }
}
