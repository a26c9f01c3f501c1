package dev.taskgov.watcher;

import java.util.List;
import java.util.Map;

import dev.taskgov.manifests.ManifestKind;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;

/**
 * The job kinds the watcher governs, read as generic resources so one code path serves them all. Where
 * a kind keeps its pod templates is {@link ManifestKind}'s (shared with the CLI's manifest reading);
 * this adds what governing it on a cluster needs.
 *
 * @param shape             the kind's API group, version, name and replica specs
 * @param suspendPath       where the suspend flag lives, from {@code spec}
 * @param successCondition  the condition type that says the job succeeded
 * @param podsUngated       whether {@link TopologyUngater} can find this kind's pods per pod set (by the
 *                          labels the batch and Kubeflow controllers put on them); for a kind whose pods
 *                          it cannot find, a pod set spread over several hosts gets its domain's node
 *                          selector only, never a scheduling gate that nothing would remove
 */
public enum JobKind {
    JOB(ManifestKind.JOB, "jobs", List.of("suspend"), "Complete", true),
    PYTORCH_JOB(ManifestKind.PYTORCH_JOB, "pytorchjobs", List.of("runPolicy", "suspend"), "Succeeded", true),
    MPI_JOB(ManifestKind.MPI_JOB, "mpijobs", List.of("runPolicy", "suspend"), "Succeeded", true),
    TF_JOB(ManifestKind.TF_JOB, "tfjobs", List.of("runPolicy", "suspend"), "Succeeded", true),
    /** What {@code hyp create hyp-pytorch-job} creates (HyperPod training operator; CRD in deploy/k8s/crds). */
    HYPERPOD_PYTORCH_JOB(ManifestKind.HYPERPOD_PYTORCH_JOB, "hyperpodpytorchjobs", List.of("runPolicy", "suspend"), "Completed", false);

    private final ManifestKind shape;
    private final String plural;
    private final List<String> suspendPath;
    private final String successCondition;
    private final boolean podsUngated;

    JobKind(ManifestKind shape, String plural, List<String> suspendPath, String successCondition, boolean podsUngated) {
        this.shape = shape;
        this.plural = plural;
        this.suspendPath = suspendPath;
        this.successCondition = successCondition;
        this.podsUngated = podsUngated;
    }

    public boolean podsUngated() {
        return podsUngated;
    }

    public ManifestKind shape() {
        return shape;
    }

    /** See {@link ManifestKind#replicaSpecs}. */
    public Map<String, ManifestKind.ReplicaSpec> replicaSpecs(Map<String, Object> spec) {
        return shape.replicaSpecs(spec);
    }

    public String kind() {
        return shape.kind();
    }

    public String apiVersion() {
        return shape.apiVersion();
    }

    public String replicaSpecsField() {
        return shape.replicaSpecsField();
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
                .withGroup(shape.group()).withVersion(shape.version()).withKind(shape.kind()).withPlural(plural).withNamespaced(true).build();
    }

    public static JobKind ofKind(String kind) {
        for (JobKind k : values()) {
            if (k.kind().equals(kind)) return k;
        }
        throw new IllegalArgumentException("not a governed kind: " + kind);
    }
}
