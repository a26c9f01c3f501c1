package dev.taskgov.manifests;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The job kinds taskgov translates, and where each keeps its pod templates. One place for the shape of
 * a kind, so the CLI's manifest reading and the job watcher's edits find the same replica specs.
 *
 * @param replicaSpecsField null for a batch/v1 Job (one pod set {@code main} from {@code spec.template});
 *                          else the field under {@code spec} holding the replica specs (one pod set each):
 *                          a map by replica type (Kubeflow), or a list of specs with a {@code name}
 *                          (HyperPodPyTorchJob, {@code spec.replicaSpecs})
 */
public enum ManifestKind {
    JOB("batch", "v1", "Job", null),
    PYTORCH_JOB("kubeflow.org", "v1", "PyTorchJob", "pytorchReplicaSpecs"),
    MPI_JOB("kubeflow.org", "v1", "MPIJob", "mpiReplicaSpecs"),
    TF_JOB("kubeflow.org", "v1", "TFJob", "tfReplicaSpecs"),
    /** What {@code hyp create hyp-pytorch-job} creates (HyperPod training operator; CRD in deploy/k8s/crds). */
    HYPERPOD_PYTORCH_JOB("sagemaker.amazonaws.com", "v1", "HyperPodPyTorchJob", "replicaSpecs");

    private final String group;
    private final String version;
    private final String kind;
    private final String replicaSpecsField;

    ManifestKind(String group, String version, String kind, String replicaSpecsField) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.replicaSpecsField = replicaSpecsField;
    }

    public String group() {
        return group;
    }

    public String version() {
        return version;
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

    /**
     * The replica specs of a job's {@code spec} by pod set name (lower case), in the job's order:
     * the map's keys for Kubeflow kinds, each list entry's {@code name} for HyperPodPyTorchJob. The
     * maps are the job's own (mutable when the job's are), so callers can edit a replica spec in place.
     */
    public Map<String, ReplicaSpec> replicaSpecs(Map<String, Object> spec) {
        Map<String, ReplicaSpec> out = new LinkedHashMap<>();
        Object specs = spec.get(replicaSpecsField);
        if (specs instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                Map<String, Object> replica = map(list.get(i));
                String name = String.valueOf(replica.getOrDefault("name", "replica-" + i));
                out.put(name.toLowerCase(Locale.ROOT), new ReplicaSpec(replica, "spec." + replicaSpecsField + "[" + i + "]"));
            }
        } else {
            map(specs).forEach((type, replica) -> out.put(type.toLowerCase(Locale.ROOT),
                    new ReplicaSpec(map(replica), "spec." + replicaSpecsField + "." + type)));
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
        /**
         * Pods of the replica spec: {@code replicas} (default 1) plus HyperPod's {@code spares}, which Kueue admits too.
         *
         * @throws InvalidManifestException when either is not a whole number
         */
        public int pods() {
            return wholeNumber(fields.get("replicas"), 1, path + ".replicas") + wholeNumber(fields.get("spares"), 0, path + ".spares");
        }
    }

    /** A count field ({@code replicas}, {@code parallelism}): absent means {@code absent}. */
    static int wholeNumber(Object value, int absent, String path) {
        if (value == null) return absent;
        if (value instanceof Integer || value instanceof Long || value instanceof Short) return ((Number) value).intValue();
        throw new InvalidManifestException("InvalidSpec", path + ": must be a whole number, was " + value);
    }

    /** The kind named {@code kind}, or null when taskgov does not govern it. */
    public static ManifestKind ofKind(String kind) {
        for (ManifestKind k : values()) {
            if (k.kind.equals(kind)) return k;
        }
        return null;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Object o) {
        return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
