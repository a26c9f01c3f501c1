package dev.taskgov.watcher;

import java.util.List;

import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The job kinds the watcher governs, read as generic resources so one code path serves them all.
 *
 * @param replicaSpecsField null for a batch/v1 Job (one pod set {@code main} from {@code spec.template});
 *                          else the field under {@code spec} holding the replica specs (one pod set each)
 * @param suspendPath       where the suspend flag lives, from {@code spec}
 * @param successCondition  the condition type that says the job succeeded
 */
public enum JobKind {
    JOB("batch", "v1", "Job", "jobs", null, List.of("suspend"), "Complete"),
    PYTORCH_JOB("kubeflow.org", "v1", "PyTorchJob", "pytorchjobs", "pytorchReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded"),
    MPI_JOB("kubeflow.org", "v1", "MPIJob", "mpijobs", "mpiReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded"),
    TF_JOB("kubeflow.org", "v1", "TFJob", "tfjobs", "tfReplicaSpecs", List.of("runPolicy", "suspend"), "Succeeded");

    private final String group;
    private final String version;
    private final String kind;
    private final String plural;
    private final String replicaSpecsField;
    private final List<String> suspendPath;
    private final String successCondition;

    JobKind(String group, String version, String kind, String plural, String replicaSpecsField, List<String> suspendPath,
            String successCondition) {
        this.group = group;
        this.version = version;
        this.kind = kind;
        this.plural = plural;
        this.replicaSpecsField = replicaSpecsField;
        this.suspendPath = suspendPath;
        this.successCondition = successCondition;
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
