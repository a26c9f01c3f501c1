package dev.taskgov.cli;

import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.manifests.InvalidManifestException;
import dev.taskgov.manifests.ManifestTranslator;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a workload asks for: the flags of {@code hyp create hyp-pytorch-job}, or {@code -f} a
 * Kueue-labelled job manifest, read as the job watcher reads it ({@link ManifestTranslator}; flags then
 * override its names and fill its instance type).
 */
final class WorkloadOptions {

    @Option(names = {"-f", "--filename"}, paramLabel = "FILE", description = "A Job, PyTorchJob, MPIJob, TFJob or HyperPodPyTorchJob manifest (YAML) with Kueue labels; '-' reads stdin.")
    String file;

    @Option(names = "--job-name", description = "Workload id (the job's name).")
    String jobName;

    @Option(names = "--namespace", description = "The team's namespace, e.g. hyperpod-ns-team-a.")
    String namespace;

    @Option(names = "--team", description = "Shorthand for --namespace hyperpod-ns-TEAM.")
    String team;

    @Option(names = "--queue-name", description = "Local queue (default NAMESPACE-localqueue).")
    String queueName;

    @Option(names = "--priority", description = "Priority class, e.g. training-priority (default: the lowest).")
    String priority;

    @Option(names = "--instance-type", description = "Instance type every pod runs on, e.g. ml.p5.48xlarge.")
    String instanceType;

    @Option(names = {"--node-count", "--pods"}, paramLabel = "N", description = "Worker pods (default 1).")
    Integer pods;

    @Option(names = "--master-pods", paramLabel = "N", description = "Pods of a separate master pod set (same requests, no topology).")
    Integer masterPods;

    @Option(names = "--accelerators", paramLabel = "N", description = "Accelerators (GPU/Neuron devices) per pod.")
    String accelerators;

    @Option(names = "--vcpu", paramLabel = "CPU", description = "vCPU per pod (4, 0.5, 500m).")
    String vcpu;

    @Option(names = "--memory", paramLabel = "GIB", description = "Memory per pod in GiB, or a quantity such as 200Mi.")
    String memory;

    @Option(names = {"--required-topology", "--required-topology-label"}, paramLabel = "LEVEL",
            description = "All worker pods inside one domain of this level, e.g. topology.k8s.aws/network-node-layer-3.")
    String requiredTopology;

    @Option(names = {"--preferred-topology", "--preferred-topology-label"}, paramLabel = "LEVEL",
            description = "Worker pods inside one domain of this level if possible.")
    String preferredTopology;

    @Option(names = "--image", description = "The job's container image, recorded on the workload (annotation taskgov.dev/image).")
    String image;

    @Option(names = "--max-retry", paramLabel = "N", description = {
            "Queue the workload again up to N times after it fails (annotation taskgov.dev/max-retry); default: a failure is final."})
    Integer maxRetry;

    @Option(names = "--expected-runtime", paramLabel = "DURATION", description = {
            "How long it is expected to run once admitted (annotation taskgov.dev/expected-runtime): 90m, 2h, 1h30m or ISO-8601",
            "PT2H; start estimates of the work queued behind it use it. Default: learned from the team's finished workloads."})
    String expectedRuntime;

    @Option(names = "--job-kind", defaultValue = "PyTorchJob", description = "Job kind recorded with the flags (default ${DEFAULT-VALUE}).")
    String jobKind;

    // Created here so that options built without picocli (the manifest tests) name no cluster; picocli fills this one.
    @picocli.CommandLine.Mixin
    ClusterOption cluster = new ClusterOption();

    /** The submission these options describe, in the cluster {@code --cluster} names (none: the only one). */
    WorkloadSubmitted submission(Instant now, PrintWriter err) {
        String arn = cluster.arn();
        WorkloadSubmitted s = describedSubmission(now, err);
        return arn == null ? s : s.withClusterArn(arn);
    }

    /** The submission these options describe; warnings (what a manifest has that taskgov ignores) go to {@code err}. */
    private WorkloadSubmitted describedSubmission(Instant now, PrintWriter err) {
        String ns = namespace != null ? namespace : team != null ? WorkloadSubmitted.NAMESPACE_PREFIX + team : null;
        if (namespace != null && team != null) throw CliException.invalid("give --namespace or --team, not both");
        if (file != null) {
            if (pods != null || masterPods != null || accelerators != null || vcpu != null || memory != null
                    || requiredTopology != null || preferredTopology != null) {
                throw CliException.invalid("with -f the pods come from the manifest; drop --pods/--master-pods/--accelerators/--vcpu/--memory/--*-topology");
            }
            ManifestTranslator.Translation t;
            try {
                t = ManifestTranslator.translate(ManifestTranslator.parse(read(file)),
                        new ManifestTranslator.Overrides(jobName, ns, queueName, priority, instanceType), now);
            } catch (InvalidManifestException e) {
                throw CliException.invalid(e.getMessage() + flagHint(e));
            }
            t.warnings().forEach(w -> err.println("warning: " + w));
            return t.submission().withAnnotations(annotations());
        }
        if (jobName == null) throw CliException.invalid("--job-name is required (or -f FILE)");
        if (ns == null) throw CliException.invalid("--namespace (or --team) is required (or -f FILE)");
        if (instanceType == null) throw CliException.invalid("--instance-type is required, e.g. ml.p5.48xlarge");
        ResourceAmounts requests = new ResourceAmounts(
                accelerators == null ? null : Quantities.whole("--accelerators", accelerators),
                vcpu == null ? null : Quantities.cpu("--vcpu", vcpu),
                memory == null ? null : Quantities.memoryGiB("--memory", memory, true));
        List<PodSetSpec> podSets = new ArrayList<>();
        if (masterPods != null) podSets.add(new PodSetSpec("master", masterPods, instanceType, requests, null, null));
        podSets.add(new PodSetSpec("worker", pods == null ? 1 : pods, instanceType, requests, requiredTopology, preferredTopology));
        String queue = queueName != null ? queueName : ns + "-localqueue";
        return new WorkloadSubmitted(jobName, ns, queue, priority, jobKind, now, podSets, annotations());
    }

    /** What the flags record on the workload: --image, --max-retry, --expected-runtime. */
    private Map<String, String> annotations() {
        if (maxRetry != null && maxRetry < 0) throw CliException.invalid("--max-retry: must not be negative, was " + maxRetry);
        Map<String, String> out = new java.util.TreeMap<>();
        if (image != null) out.put(WorkloadSubmitted.IMAGE_ANNOTATION, image);
        if (maxRetry != null) out.put(WorkloadSubmitted.MAX_RETRY_ANNOTATION, maxRetry.toString());
        if (expectedRuntime != null) out.put(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, runtime("--expected-runtime", expectedRuntime));
        return out;
    }

    /** A run time as ISO-8601 ({@code PT1H30M}), from that or the short form people type ({@code 90m}, {@code 2h}, {@code 1h30m}). */
    static String runtime(String flag, String value) {
        String v = value.strip();
        String iso = v.matches("(?i)(\\d+h)?(\\d+m)?(\\d+s)?") && !v.isEmpty() ? "PT" + v.toUpperCase(java.util.Locale.ROOT) : v;
        if (WorkloadSubmitted.parseRuntime(iso).isEmpty()) {
            throw CliException.invalid(flag + ": must be a duration greater than zero such as 90m, 2h, 1h30m or PT2H, was '" + value + "'");
        }
        return java.time.Duration.parse(iso).toString();
    }

    /** The flag that would supply what the manifest lacks, if one would. */
    private static String flagHint(InvalidManifestException e) {
        if (e.reason().equals("UnknownInstanceType")) return "; add it or give --instance-type";
        if (e.getMessage().startsWith("metadata.namespace:")) return " (or give --namespace)";
        if (e.getMessage().startsWith("metadata.name:")) return " (or give --job-name)";
        return "";
    }

    private static String read(String file) {
        try {
            if (file.equals("-")) return new String(System.in.readAllBytes(), StandardCharsets.UTF_8);
            return Files.readString(Path.of(file));
        } catch (NoSuchFileException e) {
            throw CliException.invalid("-f: no such file: " + file);
        } catch (IOException e) {
            throw CliException.invalid("-f: cannot read " + file + ": " + e.getMessage());
        }
    }

    static BigDecimal orZero(BigDecimal v) {
        return v == null ? BigDecimal.ZERO : v;
    }
}
