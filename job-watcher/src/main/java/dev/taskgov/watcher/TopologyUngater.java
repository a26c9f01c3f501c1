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
 * Gives each gated pod of a placed Job its host, as Kueue's topology ungater does: the pod template
 * carries {@link JobEditor#NODE_ASSIGNMENT} ({node: pods}); a pod still holding the
 * {@link JobEditor#TOPOLOGY_GATE} gets a {@code kubernetes.io/hostname} node selector for a host whose
 * count is not used up yet (by the job's other live pods), then loses the gate so the scheduler binds it.
 */
final class TopologyUngater {
    private static final Logger LOG = Logger.getLogger(TopologyUngater.class);
    /** Label the Job controller puts on its pods. */
    static final String JOB_NAME_LABEL = "job-name";

    private final KubernetesClient client;
    private final Executor worker;
    /** Hosts given by this ungater that the informer may not have seen yet (pod uid → host). */
    private final Map<String, String> given = new ConcurrentHashMap<>();
    private SharedIndexInformer<Pod> informer;

    TopologyUngater(KubernetesClient client, Executor worker) {
        this.client = client;
        this.worker = worker;
    }

    void start() {
        informer = client.pods().inAnyNamespace().withLabel(JOB_NAME_LABEL).inform(new ResourceEventHandler<>() {
            @Override
            public void onAdd(Pod pod) {
                worker.execute(() -> ungate(pod));
            }

            @Override
            public void onUpdate(Pod old, Pod pod) {
                worker.execute(() -> ungate(pod));
            }

            @Override
            public void onDelete(Pod pod, boolean unknownFinalState) {
                given.remove(pod.getMetadata().getUid());
            }
        });
    }

    void stop() {
        if (informer != null) informer.close();
    }

    boolean synced() {
        return informer != null && informer.hasSynced();
    }

    private void ungate(Pod pod) {
        if (!gated(pod)) return;
        String assignment = pod.getMetadata().getAnnotations() == null ? null
                : pod.getMetadata().getAnnotations().get(JobEditor.NODE_ASSIGNMENT);
        if (assignment == null) return;
        Map<String, Integer> counts = read(assignment);
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

    /** The first host, in the placement's order, with fewer live pods of this job than its count. */
    private Optional<String> freeHost(Pod pod, Map<String, Integer> counts) {
        String job = pod.getMetadata().getLabels().get(JOB_NAME_LABEL);
        Map<String, Integer> used = new HashMap<>();
        for (Pod other : informer.getStore().list()) {
            if (!pod.getMetadata().getNamespace().equals(other.getMetadata().getNamespace())) continue;
            if (!job.equals(other.getMetadata().getLabels().get(JOB_NAME_LABEL))) continue;
            if (other.getMetadata().getUid().equals(pod.getMetadata().getUid())) continue;
            String phase = other.getStatus() == null ? null : other.getStatus().getPhase();
            if ("Succeeded".equals(phase) || "Failed".equals(phase)) continue;
            String host = other.getSpec().getNodeSelector() == null ? null : other.getSpec().getNodeSelector().get(TopologyLevels.HOSTNAME);
            if (host == null || gated(other)) host = given.get(other.getMetadata().getUid());
            if (host != null) used.merge(host, 1, Integer::sum);
        }
        return counts.entrySet().stream().filter(e -> used.getOrDefault(e.getKey(), 0) < e.getValue())
                .map(Map.Entry::getKey).findFirst();
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
