package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.WorkloadSubmitted;
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
        "What taskgov records but does not enforce (image, command, --max-retry, ...) is listed in the output."})
public class HypPyTorchJobCreateCommand extends CliCommand {

    @Mixin
    HelpOption help;
    @Mixin
    HypPyTorchJobFlags flags;
    @Mixin
    Endpoints endpoints;

    @Option(names = "--kafka", defaultValue = SubmitCommand.KAFKA_DEFAULT,
            description = "Write to the submissions topic instead of calling admission-service (env TASKGOV_SUBMIT_KAFKA).")
    boolean kafka;

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
        flags.check();
        String instanceType = flags.instanceType != null ? flags.instanceType : instanceTypeOfTeamQuota();
        WorkloadSubmitted submission = flags.submission(clock.instant(), instanceType);
        SubmitCommand.checkLocally(submission);
        ObjectNode manifest = HyperPodPyTorchJobs.manifest(flags, submission);
        if (printManifest) {
            out().print(HyperPodPyTorchJobs.yaml(manifest));
            out().println("---");
            out().println(Json.pretty(submission));
            return 0;
        }
        JsonNode answer = SubmitCommand.send(submission, kafka, endpoints);
        Map<String, String> recorded = flags.notEnforced();
        switch (format) {
            case "json" -> {
                ObjectNode o = EventCodec.mapper().createObjectNode();
                o.set("workload", EventCodec.mapper().valueToTree(submission));
                o.set("answer", answer);
                o.set("recordedNotEnforced", EventCodec.mapper().valueToTree(recorded));
                out().println(Json.pretty(o));
            }
            case "yaml" -> out().print(HyperPodPyTorchJobs.yaml(manifest));
            default -> {
                out().println("hyp-pytorch-job/" + submission.workloadId() + " submitted as workload " + submission.workloadId()
                        + " (team " + submission.team() + ", " + submission.podSets().get(0).count() + " pod(s) on " + instanceType
                        + (flags.instanceType == null ? ", the instance type of the team's compute quota" : "") + ")");
                if (answer != null && answer.hasNonNull("message")) out().println(answer.get("message").asText());
                out().println("Recorded, not enforced by taskgov:");
                recorded.forEach((flag, value) -> out().println("  " + flag + ": " + value));
            }
        }
        return 0;
    }

    /**
     * Without {@code --instance-type} (seed 000's command has none) the pods run on the instance
     * type the team's compute quota allocates, when it names exactly one.
     */
    private String instanceTypeOfTeamQuota() {
        String team = new WorkloadSubmitted(flags.jobName, flags.namespace, null, null, null, null, List.of()).team();
        TreeSet<String> types = new TreeSet<>();
        try {
            SageMakerClients.call(endpoints.quota(), c -> {
                c.listComputeQuotasPaginator(b -> { }).computeQuotaSummaries().stream()
                        .filter(q -> q.computeQuotaTarget() != null && team.equals(q.computeQuotaTarget().teamName()))
                        .filter(q -> q.computeQuotaConfig() != null)
                        .forEach(q -> q.computeQuotaConfig().computeQuotaResources().forEach(r -> types.add(r.instanceTypeAsString())));
                return null;
            });
        } catch (CliException e) {
            throw CliException.invalid("--instance-type: not given, and the instance type of team " + team
                    + "'s compute quota could not be read (" + e.getMessage() + "); give --instance-type");
        }
        if (types.size() != 1) {
            throw CliException.invalid("--instance-type: not given, and team " + team + "'s compute quota names "
                    + (types.isEmpty() ? "no instance type" : "several: " + types) + "; give --instance-type");
        }
        return types.first();
    }
}
