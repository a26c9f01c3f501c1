package dev.taskgov.watcher;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The job kinds the watcher governs, read as generic resources so one code path serves them all.
 *
 * @param replicaSpecsField null for a batch/v1 Job (one pod set {@code main} from {@code spec.template});
 *                          else the field under {@code spec} holding the replica specs (one pod set each):
 *                          a map by replica type (Kubeflow), or a list of specs with a {@code name}
 *                          (HyperPodPyTorchJob, {@code spec.replicaSpecs})
 * @param suspendPath       where the suspend flag lives, from {@code spec}
 * @param successCondition  the condition type that says the job succeeded
 * @param podsUngated       whether {@link TopologyUngater} can find this kind's pods per pod set (by the
 *                          labels the batch and Kubeflow controllers put on them); for a kind whose pods
 *                          it cannot find, a pod set spread over several hosts gets its domain's node
 *                          selector only, never a scheduling gate that nothing would remove
 */
public enum JobKind {
    JOB("batch", "v1", "Job", "jobs", null, List.of("suspend"), "Complete", true),
    PYTORCH_JOB("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded", true),
    MPI_JOB("kubeflow.org", "v1", "MPIJob", "mpijobs", "mpiReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded", true),
    TF_JOB("kubeflow.org", "v1", "TFJob", "tfjobs", "tfReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded", true),
    /** What {@code hyp create hyp-pytorch-job} creates (HyperPod training operator; CRD in deploy/k8s/crds). */
    HYPERPOD_PYTORCH_JOB("sagemaker.amazonaws.com", "v1", "HyperPodPyTorchJob", "hyperpodpytorchjobs", "replicaSpecs",
            List.of("runPolicy", "suspend"), "Completed", false);

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final String replicaSpecsField;
    private final List<String> suspendPath;
    private final String successCondition;
    private final boolean podsUngated;

    JobKind(String group, String version, String kind, String plural, String replicaSpecsField, List<String> suspendPath,
            String successCondition, boolean podsUngated) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.replicaSpecsField = replicaSpecsField;
        this.suspendPath = suspendPath;
        this.successCondition = successCondition;
        this.podsUngated = podsUngated;
    }

    public boolean podsUngated() {
        return podsUngated;
    }

    /**
     * The replica specs of a job's {@code spec} by pod set name (lower case), in the job's order:
     * the map's keys for Kubeflow kinds, each list entry's {@code name} for HyperPodPyTorchJob.
     */
    public Map<String, ReplicaSpec> replicaSpecs(Map<String, Object> spec) {
        Map<String, ReplicaSpec> out = new LinkedHashMap<>();
        Object specs = spec.get(replicaSpecsField);
        if (specs instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                Map<String, Object> replica = JobMaps.map(list.get(i));
                String name = String.valueOf(replica.getOrDefault("name", "replica-" + i));
                out.put(name.toLowerCase(Locale.ROOT), new ReplicaSpec(replica, "spec." + replicaSpecsField + "[" + i + "]"));
            }
        } else {
            JobMaps.map(specs).forEach((type, replica) -> out.put(type.toLowerCase(Locale.ROOT),
                    new ReplicaSpec(JobMaps.map(replica), "spec." + replicaSpecsField + "." + type)));
        }
        return out;
    }

    /**
     * One replica spec and where it is in the job (for messages).
     *
     * @param fields the replica spec's map (mutable when the job's is)
     * @param path   e.g. {@code spec.pytorchReplicaSpecs.Worker} or {@code spec.replicaSpecs[0]}
     */
    public record ReplicaSpec(Map<String, Object> fields, String path) {
        /** Pods of the replica spec: {@code replicas} (default 1) plus HyperPod's {@code spares}, which Kueue admits too. */
        public int pods() {
            Object replicas = fields.get("replicas");
            Object spares = fields.get("spares");
            return (replicas == null ? 1 : ((Number) replicas).intValue()) + (spares == null ? 0 : ((Number) spares).intValue());
        }
    }

    public String kind() {
        return kind;
    }

    public String apiVersion() {
        return group + "/" + version;
    }

    public String replicaSpecsField() {
        return replicaSpecsField;
    }

    public List<String> suspendPath() {
        return suspendPath;
    }

    /** The suspend flag's field path, e.g. {@code spec.runPolicy.suspend}. */
    public String suspendField() {
        return "spec." + String.join(".", suspendPath);
    }

    public String successCondition() {
        return successCondition;
    }

    public ResourceDefinitionContext context() {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group).withVersion(version).withKind(kind).withPlural(plural).withNamespaced(true).build();
    }

    public static JobKind ofKind(String kind) {
        for (JobKind k : values()) {
            if (k.kind.equals(kind)) return k;
        }
        throw new IllegalArgumentException("not a governed kind: " + kind);
    }
}
