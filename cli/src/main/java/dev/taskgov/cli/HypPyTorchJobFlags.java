package dev.taskgov.cli;

import com.fasterxml.jackson.core.type.TypeReference;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.Amounts;
import dev.taskgov.manifests.InvalidManifestException;
import dev.taskgov.manifests.ManifestKind;
import dev.taskgov.manifests.ManifestTranslator;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Option;

import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The flags of the HyperPod CLI's {@code hyp create hyp-pytorch-job} (template versions 1.0 and
 * 1.1), with the HyperPod CLI's meanings: {@code --node-count} pods (default 1) of one replica
 * spec, {@code --tasks-per-node} processes per pod (not pods), requests from {@code --accelerators},
 * {@code --vcpu}, {@code --memory} (GiB) and limits from the {@code -limit} flags (a request not
 * given is its limit, as in Kubernetes), {@code --instance-type} and {@code --label-selector} as the
 * pods' node selector, {@code --priority} and {@code --queue-name} as the Kueue labels, the topology
 * labels as the pod set's preferred or required level.
 *
 * <p>What taskgov cannot enforce (the image, the command, volumes, ...) is accepted, written into the
 * HyperPodPyTorchJob the flags describe, and listed by {@link #notEnforced()} so the command reports it
 * instead of ignoring it. {@code --max-retry} is honoured ({@link #honoured}): taskgov queues a workload
 * that fails again up to that many times, or, with {@code --kubernetes}, the HyperPod operator restarts the job.
 */
final class HypPyTorchJobFlags {

    static final Set<String> VERSIONS = Set.of("1.0", "1.1");
    static final Set<String> TOPOLOGY_LABELS = Set.of("topology.k8s.aws/ultraserver-id", "topology.k8s.aws/network-node-layer-1",
            "topology.k8s.aws/network-node-layer-2", "topology.k8s.aws/network-node-layer-3");
    static final Set<String> PULL_POLICIES = Set.of("Always", "IfNotPresent", "Never");

    @Option(names = "--version", paramLabel = "VERSION", defaultValue = "1.1",
            description = "hyp-pytorch-job template version: 1.0 or 1.1 (default ${DEFAULT-VALUE}). Not taskgov's own version (taskgov --version).")
    String version;

    @Option(names = "--job-name", required = true, description = "Job name; also the workload id.")
    String jobName;

    @Option(names = "--image", required = true, description = "Container image (recorded on the job; taskgov does not pull it).")
    String image;

    @Option(names = "--namespace", defaultValue = "${env:TASKGOV_NAMESPACE}",
            description = "The team's namespace hyperpod-ns-<team> (env TASKGOV_NAMESPACE).")
    String namespace;

    @Option(names = "--command", paramLabel = "JSON", description = "Container command, a JSON list (recorded).")
    String command;

    @Option(names = "--args", paramLabel = "JSON", description = "Container arguments, a JSON list (recorded).")
    String args;

    @Option(names = "--environment", paramLabel = "JSON", description = "Environment variables, a JSON object (recorded).")
    String environment;

    @Option(names = "--pull-policy", description = "Always, IfNotPresent or Never (recorded).")
    String pullPolicy;

    @Option(names = "--instance-type", description = "Instance type of every pod (node selector node.kubernetes.io/instance-type).")
    String instanceType;

    @Option(names = "--node-count", paramLabel = "N", defaultValue = "1", description = "Pods (nodes) of the job (default ${DEFAULT-VALUE}).")
    int nodeCount;

    @Option(names = "--tasks-per-node", paramLabel = "N|auto|cpu|gpu", description = "Processes per pod (recorded as nprocPerNode; not a pod count).")
    String tasksPerNode;

    @Option(names = "--label-selector", paramLabel = "JSON", description = "Node labels the pods' nodes must carry, a JSON object.")
    String labelSelector;

    @Option(names = "--deep-health-check-passed-nodes-only", arity = "0..1", fallbackValue = "true",
            description = "Only nodes labelled deep-health-check-passed=true.")
    boolean deepHealthCheckPassedNodesOnly;

    @Option(names = "--scheduler-type", description = "Pod scheduler name (recorded).")
    String schedulerType;

    @Option(names = "--queue-name", description = "Kueue local queue (default <namespace>-localqueue).")
    String queueName;

    @Option(names = "--priority", description = "Priority class label, e.g. high-priority (default: the lowest class).")
    String priority;

    @Option(names = "--accelerators", paramLabel = "N", description = "Accelerators requested per pod.")
    String accelerators;

    @Option(names = "--vcpu", paramLabel = "CPU", description = "vCPU requested per pod.")
    String vcpu;

    @Option(names = "--memory", paramLabel = "GIB", description = "Memory requested per pod, in GiB.")
    String memory;

    @Option(names = "--accelerators-limit", paramLabel = "N", description = "Accelerator limit per pod.")
    String acceleratorsLimit;

    @Option(names = "--accelerator-partition-type", paramLabel = "TYPE",
            description = "MIG profile of the accelerator partitions per pod, e.g. mig-1g.10gb (taskgov list-accelerator-partition-type).")
    String acceleratorPartitionType;

    @Option(names = "--accelerator-partition-count", paramLabel = "N", description = "Accelerator partitions requested per pod.")
    String acceleratorPartitionCount;

    @Option(names = "--accelerator-partition-limit", paramLabel = "N", description = "Accelerator partition limit per pod.")
    String acceleratorPartitionLimit;

    @Option(names = "--vcpu-limit", paramLabel = "CPU", description = "vCPU limit per pod.")
    String vcpuLimit;

    @Option(names = "--memory-limit", paramLabel = "GIB", description = "Memory limit per pod, in GiB.")
    String memoryLimit;

    @Option(names = "--max-retry", paramLabel = "N", description = {
            "Retries after a failure: taskgov queues the failed workload again up to N times (taskgov.dev/max-retry);",
            "with --kubernetes the HyperPod operator restarts the job (runPolicy.jobMaxRetryCount)."})
    Integer maxRetry;

    @Option(names = "--expected-runtime", paramLabel = "DURATION", description = {
            "How long the job is expected to run once admitted (taskgov.dev/expected-runtime): 90m, 2h, 1h30m or PT2H;",
            "start estimates of the work queued behind it use it (default: learned from finished workloads)."})
    String expectedRuntime;

    @Option(names = "--volume", paramLabel = "SPEC", description = "name=..,type=hostPath|pvc,mount_path=..,... (recorded; repeatable).")
    List<String> volumes = new ArrayList<>();

    @Option(names = "--service-account-name", description = "Pod service account (recorded).")
    String serviceAccountName;

    @Option(names = {"--preferred-topology-label", "--preferred-topology"}, paramLabel = "LABEL",
            description = "Pods inside one domain of this level if possible.")
    String preferredTopology;

    @Option(names = {"--required-topology-label", "--required-topology"}, paramLabel = "LABEL",
            description = "All pods inside one domain of this level.")
    String requiredTopology;

    /** The rules of the flags on their own, each broken one with its flag. */
    void check() {
        List<String> broken = new ArrayList<>();
        if (!VERSIONS.contains(version)) broken.add("--version: hyp-pytorch-job template version must be one of " + new java.util.TreeSet<>(VERSIONS) + ", was '" + version + "'");
        if (namespace == null || namespace.isBlank()) broken.add("--namespace: required (the team's namespace hyperpod-ns-<team>; or env TASKGOV_NAMESPACE)");
        if (pullPolicy != null && !PULL_POLICIES.contains(pullPolicy)) broken.add("--pull-policy: must be one of " + new java.util.TreeSet<>(PULL_POLICIES) + ", was '" + pullPolicy + "'");
        if (nodeCount < 1) broken.add("--node-count: must be at least 1, was " + nodeCount);
        if (maxRetry != null && maxRetry < 0) broken.add("--max-retry: must not be negative, was " + maxRetry);
        if (tasksPerNode != null && !tasksPerNode.matches("auto|cpu|gpu|[1-9][0-9]*")) broken.add("--tasks-per-node: must be auto, cpu, gpu or a whole number, was '" + tasksPerNode + "'");
        for (String t : new String[]{preferredTopology, requiredTopology}) {
            if (t != null && !TOPOLOGY_LABELS.contains(t)) broken.add("topology label '" + t + "' must be one of " + new java.util.TreeSet<>(TOPOLOGY_LABELS));
        }
        if (preferredTopology != null && requiredTopology != null) broken.add("--preferred-topology-label and --required-topology-label: give one");
        if (acceleratorPartitionType == null && (acceleratorPartitionCount != null || acceleratorPartitionLimit != null)) {
            broken.add("--accelerator-partition-type: required with --accelerator-partition-count or --accelerator-partition-limit");
        }
        if (acceleratorPartitionType != null) {
            if (!dev.taskgov.core.model.AcceleratorPartitions.TYPES.contains(acceleratorPartitionType)) {
                broken.add("--accelerator-partition-type: must be one of " + String.join(" | ", dev.taskgov.core.model.AcceleratorPartitions.TYPES)
                        + ", was '" + acceleratorPartitionType + "'");
            }
            if (acceleratorPartitionCount == null && acceleratorPartitionLimit == null) {
                broken.add("--accelerator-partition-type: give --accelerator-partition-count or --accelerator-partition-limit");
            }
            if (accelerators != null || acceleratorsLimit != null) {
                broken.add("--accelerator-partition-type: a pod asks for whole accelerators or for partitions, not both "
                        + "(a GPU in MIG mode is not also a whole accelerator)");
            }
        }
        if (!broken.isEmpty()) throw CliException.invalid(String.join(System.lineSeparator(), broken));
    }

    /**
     * The job's names and its one pod set "pod" of --node-count pods, without requests: what the
     * HyperPodPyTorchJob manifest is written from ({@link HyperPodPyTorchJobs#manifest}); the workload itself
     * is that manifest's translation ({@link #workload}), as the job watcher would make it.
     */
    WorkloadSubmitted outline(Instant now, String resolvedInstanceType) {
        checkLimits();
        PodSetSpec pods = new PodSetSpec("pod", nodeCount, resolvedInstanceType, null, requiredTopology, preferredTopology,
                nodeSelector());
        String queue = queueName != null ? queueName : namespace + "-localqueue";
        return new WorkloadSubmitted(jobName, namespace, queue, priority, HyperPodPyTorchJobs.KIND, now, List.of(pods));
    }

    /**
     * The workload taskgov governs: the manifest the flags describe, read by the shared manifests translator
     * (requests else limits, the image recorded), plus --max-retry and --expected-runtime recorded. The manifest is the one
     * {@link HyperPodPyTorchJobs#manifest} built, its pod template typed, which the translator reads as it is.
     */
    WorkloadSubmitted workload(GenericKubernetesResource manifest, Instant now) {
        WorkloadSubmitted w;
        try {
            w = ManifestTranslator.translate(ManifestKind.HYPERPOD_PYTORCH_JOB, manifest, ManifestTranslator.Overrides.NONE, now).submission();
        } catch (InvalidManifestException e) {
            throw CliException.invalid(e.getMessage());
        }
        Map<String, String> recorded = new java.util.TreeMap<>();
        if (maxRetry != null) recorded.put(WorkloadSubmitted.MAX_RETRY_ANNOTATION, maxRetry.toString());
        if (expectedRuntime != null) {
            recorded.put(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, WorkloadOptions.runtime("--expected-runtime", expectedRuntime));
        }
        return recorded.isEmpty() ? w : w.withAnnotations(recorded);
    }

    /** Each flag a quantity (whole for accelerators, a number of GiB for memory), and no limit below its request. */
    private void checkLimits() {
        checkLimit("--accelerators", accelerators, "--accelerators-limit", acceleratorsLimit, Quantities::whole);
        checkLimit("--accelerator-partition-count", acceleratorPartitionCount, "--accelerator-partition-limit", acceleratorPartitionLimit,
                Quantities::whole);
        checkLimit("--vcpu", vcpu, "--vcpu-limit", vcpuLimit, Quantities::parse);
        checkLimit("--memory", memory, "--memory-limit", memoryLimit, Quantities::gib);
    }

    private static void checkLimit(String requestFlag, String request, String limitFlag, String limit,
                                   java.util.function.BiFunction<String, String, BigDecimal> amount) {
        BigDecimal r = request == null ? null : amount.apply(requestFlag, request);
        BigDecimal l = limit == null ? null : amount.apply(limitFlag, limit);
        if (r != null && l != null && l.compareTo(r) < 0) {
            throw CliException.invalid(limitFlag + ": must be at least " + requestFlag + " (" + r.toPlainString() + "), was " + l.toPlainString());
        }
    }

    /** --label-selector plus the instance type and the deep health check label, as the hyp CLI writes them. */
    Map<String, String> nodeSelector() {
        Map<String, String> out = new TreeMap<>();
        if (labelSelector != null) out.putAll(jsonObject("--label-selector", labelSelector));
        if (deepHealthCheckPassedNodesOnly) out.put("deep-health-check-passed", "true");
        return out;
    }

    /**
     * What the flags ask for that taskgov honours beyond placement and quota, flag by flag: {@code --max-retry}.
     *
     * @param kubernetes whether the job is created in the cluster (its operator then retries, inside the admission)
     */
    Map<String, String> honoured(boolean kubernetes) {
        Map<String, String> out = new LinkedHashMap<>();
        if (maxRetry == null) return out;
        out.put("--max-retry", maxRetry + (kubernetes
                ? " (the HyperPod operator restarts the failed job up to " + Amounts.count(maxRetry, "time", "times")
                        + ", runPolicy.jobMaxRetryCount, while it"
                        + " keeps its admission; the job watcher reports the job Failed only after that, and taskgov takes it as final)"
                : " (" + WorkloadSubmitted.MAX_RETRY_ANNOTATION + ": a Failed finish queues the workload again, up to "
                        + Amounts.count(maxRetry, "time", "times")
                        + ", pending with reason RetryAfterFailure and admitted again by the usual rules; then a failure is final)"));
        return out;
    }

    /** What the flags ask for that taskgov records but does not enforce, flag by flag. */
    Map<String, String> notEnforced() {
        Map<String, String> out = new LinkedHashMap<>();
        out.put("--image", image + " (recorded on the workload as " + WorkloadSubmitted.IMAGE_ANNOTATION
                + "; taskgov governs admission, the cluster pulls and runs it)");
        if (pullPolicy != null) out.put("--pull-policy", pullPolicy + " (container imagePullPolicy)");
        if (command != null) out.put("--command", command);
        if (args != null) out.put("--args", args);
        if (environment != null) out.put("--environment", environment);
        if (tasksPerNode != null) out.put("--tasks-per-node", tasksPerNode + " (processes per pod, nprocPerNode; the pod count is --node-count)");
        if (schedulerType != null) out.put("--scheduler-type", schedulerType + " (pod schedulerName)");
        if (!volumes.isEmpty()) out.put("--volume", String.join("; ", volumes));
        if (serviceAccountName != null) out.put("--service-account-name", serviceAccountName);
        String limits = String.join(", ", java.util.stream.Stream.of(
                acceleratorsLimit == null ? null : "accelerators " + acceleratorsLimit,
                acceleratorPartitionLimit == null ? null : acceleratorPartitionType + " partitions " + acceleratorPartitionLimit,
                vcpuLimit == null ? null : "vcpu " + vcpuLimit, memoryLimit == null ? null : "memory " + memoryLimit + " GiB")
                .filter(java.util.Objects::nonNull).toList());
        if (!limits.isEmpty()) out.put("limits", limits + " (container limits; quota counts requests, a limit alone as its request)");
        return out;
    }

    static Map<String, String> jsonObject(String flag, String json) {
        try {
            return EventCodec.mapper().readValue(json, new TypeReference<Map<String, String>>() { });
        } catch (Exception e) {
            throw CliException.invalid(flag + ": must be a JSON object of strings such as '{\"key\": \"value\"}', was " + json);
        }
    }

    static List<String> jsonList(String flag, String json) {
        try {
            List<String> list = EventCodec.mapper().readValue(json, new TypeReference<List<String>>() { });
            if (list != null) return list;
        } catch (Exception e) {
            // the message below names the flag
        }
        throw CliException.invalid(flag + ": must be a JSON list of strings such as '[\"python\", \"train.py\"]', was " + json);
    }
}
