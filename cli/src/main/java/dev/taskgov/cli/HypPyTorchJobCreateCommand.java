package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code taskgov create hyp-pytorch-job}: the HyperPod CLI's {@code hyp create hyp-pytorch-job}
 * with the same flags, submitting the job to taskgov as a workload.
 */
@Command(name = "hyp-pytorch-job", description = {
        "Submit a PyTorch job with the flags of hyp create hyp-pytorch-job (template 1.0/1.1) as a taskgov workload.",
        "What taskgov records but does not enforce (image, command, ...) is listed in the output; --max-retry is honoured."})
public class HypPyTorchJobCreateCommand extends ServiceCommand {

    @Mixin
    HelpOption help;
    @Mixin
    HypPyTorchJobFlags flags;
    /** hyp create takes its cluster from hyp set-cluster-context; so does this (or --cluster / TASKGOV_CLUSTER). */
    @Mixin
    ClusterOption cluster;

    @Option(names = "--kafka", defaultValue = SubmitCommand.KAFKA_DEFAULT,
            description = "Write to the submissions topic instead of calling admission-service (env TASKGOV_SUBMIT_KAFKA).")
    boolean kafka;

    @Option(names = "--kubernetes", description = {
            "Create the HyperPodPyTorchJob in the cluster (kubeconfig or in-cluster config), suspended: the job watcher",
            "submits it as a workload and unsuspends it when taskgov admits it. Nothing is written to Kafka then."})
    boolean kubernetes;

    @Option(names = "--print-manifest", description = "Print the HyperPodPyTorchJob (YAML, for kubectl apply) and the workload; send nothing.")
    boolean printManifest;

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "table, json (the submission and the service's answer) or yaml (the HyperPodPyTorchJob) (default ${DEFAULT-VALUE}).")
    String format;

    @Override
    protected int run() {
        if (!List.of("table", "json", "yaml").contains(format)) {
            throw CliException.invalid("-o: must be table, json or yaml, was '" + format + "'");
        }
        if (flags.namespace == null || flags.namespace.isBlank()) {
            flags.namespace = ClusterContext.current().map(ClusterContext::namespace).orElse(null);
        }
        flags.check();
        String clusterArn = cluster.arn();
        String instanceType = flags.instanceType != null ? flags.instanceType : instanceTypeOfTeamQuota(clusterArn);
        if (flags.acceleratorPartitionType != null && instanceType != null) {
            dev.taskgov.core.model.AcceleratorPartitions.problem(instanceType, flags.acceleratorPartitionType)
                    .ifPresent(p -> { throw CliException.invalid("--accelerator-partition-type: " + p); });
        }
        GenericKubernetesResource manifest = HyperPodPyTorchJobs.manifest(flags, flags.outline(clock.instant(), instanceType));
        WorkloadSubmitted described = flags.workload(manifest, clock.instant());
        WorkloadSubmitted submission = clusterArn == null ? described : described.withClusterArn(clusterArn);
        SubmitCommand.checkLocally(submission);
        if (printManifest) {
            out().print(HyperPodPyTorchJobs.yaml(manifest));
            out().println("---");
            out().println(Json.pretty(submission));
            return 0;
        }
        Map<String, String> recorded = flags.notEnforced();
        Map<String, String> honoured = flags.honoured(kubernetes);
        if (kubernetes) {
            createInCluster(manifest);
            out().println("hyperpodpytorchjob.sagemaker.amazonaws.com/" + submission.workloadId() + " created in " + submission.namespace()
                    + " (suspended; the job watcher submits it to taskgov and unsuspends it on admission)");
            printHonoured(honoured);
            out().println("Recorded on the job, not enforced by taskgov:");
            recorded.forEach((flag, value) -> out().println("  " + flag + ": " + value));
            return 0;
        }
        JsonNode answer = SubmitCommand.send(submission, kafka, endpoints, err());
        switch (format) {
            case "json" -> {
                ObjectNode o = EventCodec.mapper().createObjectNode();
                o.set("workload", EventCodec.mapper().valueToTree(submission));
                o.set("answer", answer);
                o.set("honoured", EventCodec.mapper().valueToTree(honoured));
                o.set("recordedNotEnforced", EventCodec.mapper().valueToTree(recorded));
                out().println(Json.pretty(o));
            }
            case "yaml" -> out().print(HyperPodPyTorchJobs.yaml(manifest));
            default -> {
                out().println("hyp-pytorch-job/" + submission.workloadId() + " submitted as workload " + submission.workloadId()
                        + " (team " + submission.team() + ", "
                        + dev.taskgov.core.model.Amounts.count(submission.podSets().get(0).count(), "pod", "pods") + " on " + instanceType
                        + (flags.instanceType == null ? ", the instance type of the team's compute quota" : "") + ")");
                if (answer != null && answer.hasNonNull("message")) out().println(answer.get("message").asText());
                printHonoured(honoured);
                out().println("Recorded, not enforced by taskgov:");
                recorded.forEach((flag, value) -> out().println("  " + flag + ": " + value));
            }
        }
        return 0;
    }

    private void printHonoured(Map<String, String> honoured) {
        if (honoured.isEmpty()) return;
        out().println("Honoured:");
        honoured.forEach((flag, value) -> out().println("  " + flag + ": " + value));
    }

    /** Creates the job suspended, as Kueue's webhook would leave it, so that nothing runs before taskgov admits it. */
    @SuppressWarnings("unchecked")
    private static void createInCluster(GenericKubernetesResource job) {
        Map<String, Object> spec = (Map<String, Object>) job.getAdditionalProperties().get("spec");
        ((Map<String, Object>) spec.computeIfAbsent("runPolicy", k -> new java.util.LinkedHashMap<>())).put("suspend", true);
        var context = new io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext.Builder()
                .withGroup("sagemaker.amazonaws.com").withVersion("v1").withKind(HyperPodPyTorchJobs.KIND)
                .withPlural("hyperpodpytorchjobs").withNamespaced(true).build();
        try (io.fabric8.kubernetes.client.KubernetesClient client = new io.fabric8.kubernetes.client.KubernetesClientBuilder().build()) {
            client.genericKubernetesResources(context).inNamespace(job.getMetadata().getNamespace()).resource(job).create();
        } catch (io.fabric8.kubernetes.client.KubernetesClientException e) {
            throw new CliException(e.getCode() == 409 ? CliException.INVALID_INPUT : CliException.FAILED,
                    "--kubernetes: the API server refused the HyperPodPyTorchJob (" + e.getCode() + "): " + e.getMessage(), e);
        }
    }

    /**
     * Without {@code --instance-type} (seed 000's command has none) the pods run on the instance type the team's
     * compute quota allocates in the workload's cluster, when it names exactly one. Read from admission-service's
     * ledger ({@code GET /teams}, as {@code taskgov get teams} shows it): the quota the workload will be governed by, over
     * the signed HTTP client the submission uses anyway, rather than through the SageMaker client, whose build and first
     * call were most of this command's time (docs/benchmarks.md, "CLI start time").
     */
    private String instanceTypeOfTeamQuota(String clusterArn) {
        String team = new WorkloadSubmitted(flags.jobName, flags.namespace, null, null, null, null, List.of()).team();
        TreeSet<String> types = new TreeSet<>();
        boolean hasQuota = false;
        String readCluster = clusterArn;
        try {
            JsonNode answer = endpoints.admission().teams(clusterArn);
            if (readCluster == null) readCluster = Views.text(answer, "clusterArn");
            for (JsonNode t : answer.path("teams")) {
                if (!team.equals(Views.text(t, "team"))) continue;
                for (var type = t.path("instanceTypes").fields(); type.hasNext(); ) {
                    var entry = type.next();
                    // A type the team only borrows appears with a nominal of zero: its quota does not allocate it.
                    boolean allocated = false;
                    for (JsonNode amount : entry.getValue().path("nominal")) allocated |= amount.asDouble() > 0;
                    if (allocated) types.add(entry.getKey());
                }
                hasQuota = t.path("instanceTypes").size() > 0;
            }
        } catch (CliException e) {
            throw CliException.invalid("--instance-type: not given, and the instance type of team " + team
                    + "'s compute quota could not be read (" + e.getMessage() + "); give --instance-type");
        }
        String in = readCluster == null ? "" : " in cluster " + ClusterOption.shortName(readCluster) + " (" + readCluster + ")";
        if (!hasQuota) {
            // Without a quota the submission would be rejected whatever the instance type: say what is missing.
            throw CliException.invalid("team '" + team + "' has no compute quota" + in + ", so it can run nothing there; an"
                    + " administrator gives it one: taskgov quota create --name " + team + "-quota --team-name " + team
                    + (readCluster == null ? "" : " --cluster-arn " + readCluster) + " --resource InstanceType=TYPE,Count=N"
                    + " (taskgov get teams lists the teams with a quota)");
        }
        if (types.size() != 1) {
            throw CliException.invalid("--instance-type: not given, and team " + team + "'s compute quota names "
                    + (types.isEmpty() ? "no instance type of its own (it only borrows)" : "several: " + types) + in
                    + "; give --instance-type");
        }
        return types.first();
    }
}
