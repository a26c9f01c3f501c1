package dev.taskgov.watcher;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.core.type.TypeReference;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.topology.TopologyLevels;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;

/**
 * Edits a job in place for an admission (node selectors, scheduling gates, unsuspend) and for a
 * preemption (suspend, selectors as the user wrote them). Works on the generic resource's maps.
 */
public final class JobEditor {

    /** Pods held back until the ungater gives each one its host. */
    public static final String TOPOLOGY_GATE = "taskgov.dev/topology";
    /** On a pod template: JSON {node: pods} the ungater assigns hosts from. */
    public static final String NODE_ASSIGNMENT = "taskgov.dev/node-assignment";
    /**
     * On the job: JSON {podSet: {node: pods}}, the current placement. The ungater takes hosts from it
     * before the pod's own {@link #NODE_ASSIGNMENT}: a running job's pod templates may not change, but
     * after a node failure (NodeReplaced) its recreated pods must go to the new hosts.
     */
    public static final String NODE_ASSIGNMENTS = "taskgov.dev/node-assignments";
    /** On the job: JSON {podSet: nodeSelector} as the user wrote them, restored on preemption. */
    public static final String ORIGINAL_SELECTORS = "taskgov.dev/original-node-selectors";

    private JobEditor() {
    }

    /**
     * Places the pod sets as admitted and unsuspends the job.
     *
     * @return conflicts between the placement and the user's own node selectors (the user's value is kept)
     */
    public static List<String> admit(JobKind kind, GenericKubernetesResource job, List<WorkloadAdmitted.AdmittedPodSet> podSets) {
        List<String> conflicts = new ArrayList<>();
        Map<String, Map<String, String>> originals = new LinkedHashMap<>();
        String saved = annotations(job).get(ORIGINAL_SELECTORS);
        if (saved != null) originals.putAll(readSelectors(saved));
        for (WorkloadAdmitted.AdmittedPodSet placed : podSets) {
            Map<String, Object> template = template(kind, job, placed.name());
            if (template == null) {
                conflicts.add("pod set " + placed.name() + " is not in the job");
                continue;
            }
            Map<String, Object> podSpec = JobMaps.child(template, "spec");
            Map<String, Object> selector = JobMaps.child(podSpec, "nodeSelector");
            originals.putIfAbsent(placed.name(), stringMap(selector));
            if (placed.domain() != null && !TopologyLevels.HOSTNAME.equals(placed.domain().level())) {
                setSelector(selector, placed.domain().level(), placed.domain().value(), placed.name(), conflicts);
            }
            List<WorkloadAdmitted.NodeCount> nodes = placed.nodes() == null ? List.of() : placed.nodes();
            if (nodes.size() == 1) {
                setSelector(selector, TopologyLevels.HOSTNAME, nodes.get(0).name(), placed.name(), conflicts);
            } else if (nodes.size() > 1 && kind.podsUngated()) {
                List<Object> gates = JobMaps.childList(podSpec, "schedulingGates");
                if (gates.stream().noneMatch(g -> TOPOLOGY_GATE.equals(JobMaps.map(g).get("name")))) {
                    gates.add(new LinkedHashMap<>(Map.of("name", TOPOLOGY_GATE)));
                }
                Map<String, Integer> counts = new LinkedHashMap<>();
                nodes.forEach(n -> counts.put(n.name(), n.count()));
                JobMaps.child(JobMaps.child(template, "metadata"), "annotations").put(NODE_ASSIGNMENT, EventCodec.write(counts));
            }
        }
        annotationsForEdit(job).put(ORIGINAL_SELECTORS, EventCodec.write(originals));
        setAssignments(job, podSets);
        setSuspended(kind, job, false);
        return conflicts;
    }

    /**
     * A running job's new placement after a node failure: only the job's {@link #NODE_ASSIGNMENTS}
     * change (the pod templates of a started job are immutable); pods recreated in place of those on
     * the failed node get their hosts from it.
     */
    public static void replacePlacement(GenericKubernetesResource job, List<WorkloadAdmitted.AdmittedPodSet> podSets) {
        setAssignments(job, podSets);
    }

    private static void setAssignments(GenericKubernetesResource job, List<WorkloadAdmitted.AdmittedPodSet> podSets) {
        Map<String, Map<String, Integer>> all = new LinkedHashMap<>();
        for (WorkloadAdmitted.AdmittedPodSet placed : podSets) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            if (placed.nodes() != null) placed.nodes().forEach(n -> counts.put(n.name(), n.count()));
            all.put(placed.name(), counts);
        }
        annotationsForEdit(job).put(NODE_ASSIGNMENTS, EventCodec.write(all));
    }

    /** Suspends the job and gives every pod template back the node selectors the user wrote, without gates. */
    public static void preempt(JobKind kind, GenericKubernetesResource job) {
        String saved = annotations(job).get(ORIGINAL_SELECTORS);
        Map<String, Map<String, String>> originals = saved == null ? Map.of() : readSelectors(saved);
        for (Map.Entry<String, Map<String, String>> e : originals.entrySet()) {
            Map<String, Object> template = template(kind, job, e.getKey());
            if (template == null) continue;
            Map<String, Object> podSpec = JobMaps.child(template, "spec");
            if (e.getValue().isEmpty()) podSpec.remove("nodeSelector");
            else podSpec.put("nodeSelector", new LinkedHashMap<>(e.getValue()));
            List<Object> gates = JobMaps.childList(podSpec, "schedulingGates");
            gates.removeIf(g -> TOPOLOGY_GATE.equals(JobMaps.map(g).get("name")));
            if (gates.isEmpty()) podSpec.remove("schedulingGates");
            Map<String, Object> meta = JobMaps.child(template, "metadata");
            JobMaps.map(meta.get("annotations")).remove(NODE_ASSIGNMENT);
        }
        annotationsForEdit(job).remove(ORIGINAL_SELECTORS);
        annotationsForEdit(job).remove(NODE_ASSIGNMENTS);
        setSuspended(kind, job, true);
    }

    public static boolean suspended(JobKind kind, GenericKubernetesResource job) {
        return Boolean.TRUE.equals(JobMaps.at(JobMaps.map(job.getAdditionalProperties().get("spec")), kind.suspendPath()));
    }

    static void setSuspended(JobKind kind, GenericKubernetesResource job, boolean suspended) {
        JobMaps.put(JobMaps.child(job.getAdditionalProperties(), "spec"), kind.suspendPath(), suspended);
    }

    /** The pod template of one pod set ({@code main} for a Job; the replica spec named in any case otherwise). */
    static Map<String, Object> template(JobKind kind, GenericKubernetesResource job, String podSet) {
        Map<String, Object> spec = JobMaps.map(job.getAdditionalProperties().get("spec"));
        if (kind.replicaSpecsField() == null) {
            return "main".equals(podSet) ? JobMaps.child(spec, "template") : null;
        }
        dev.taskgov.manifests.ManifestKind.ReplicaSpec replica = kind.replicaSpecs(spec).get(podSet);
        return replica == null ? null : JobMaps.child(replica.fields(), "template");
    }

    private static void setSelector(Map<String, Object> selector, String key, String value, String podSet, List<String> conflicts) {
        Object mine = selector.get(key);
        if (mine != null && !mine.equals(value)) {
            conflicts.add("pod set " + podSet + ": placed at " + key + "=" + value + " but its nodeSelector asks for " + mine);
            return;
        }
        selector.put(key, value);
    }

    private static Map<String, String> stringMap(Map<String, Object> m) {
        Map<String, String> out = new LinkedHashMap<>();
        m.forEach((k, v) -> out.put(k, String.valueOf(v)));
        return out;
    }

    private static Map<String, Map<String, String>> readSelectors(String json) {
        try {
            return EventCodec.mapper().readValue(json, new TypeReference<LinkedHashMap<String, Map<String, String>>>() { });
        } catch (Exception e) {
            return Map.of();
        }
    }

    static Map<String, String> annotations(GenericKubernetesResource job) {
        return job.getMetadata().getAnnotations() == null ? Map.of() : job.getMetadata().getAnnotations();
    }

    static Map<String, String> annotationsForEdit(GenericKubernetesResource job) {
        if (job.getMetadata().getAnnotations() == null) job.getMetadata().setAnnotations(new LinkedHashMap<>());
        return job.getMetadata().getAnnotations();
    }
}
