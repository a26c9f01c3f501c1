package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.auth.SafeText;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.services.sagemaker.model.DescribeComputeQuotaResponse;

import java.io.PrintWriter;

/** {@code taskgov quota describe ID}: SageMaker DescribeComputeQuota. */
@Command(name = "describe", description = "Show a compute quota (DescribeComputeQuota).")
public class QuotaDescribeCommand extends AnswerCommand {

    @Parameters(paramLabel = "ID", description = "ComputeQuotaId.")
    String id;

    @Option(names = {"--version", "--compute-quota-version"}, paramLabel = "N",
            description = "ComputeQuotaVersion (default: the latest); --compute-quota-version as the aws CLI spells it.")
    Integer version;

    @Mixin
    HelpOption help;

    @Override
    protected int run() {
        DescribeComputeQuotaResponse r = SageMakerClients.call(endpoints,
                c -> c.describeComputeQuota(b -> b.computeQuotaId(id).computeQuotaVersion(version)));
        JsonNode json = SageMakerJson.toJson(r);
        if (output.structured()) out().println(output.render(json));
        else print(json, out());
        return 0;
    }

    static void print(JsonNode q, PrintWriter out) {
        line(out, "Name:", q.path("Name").asText(null));
        line(out, "Id:", q.path("ComputeQuotaId").asText(null));
        line(out, "Arn:", q.path("ComputeQuotaArn").asText(null));
        line(out, "Version:", q.path("ComputeQuotaVersion").asText(null));
        line(out, "Status:", q.path("Status").asText(null) + (q.hasNonNull("FailureReason") ? " (" + q.get("FailureReason").asText() + ")" : ""));
        line(out, "Cluster:", q.path("ClusterArn").asText(null));
        line(out, "Team:", q.path("ComputeQuotaTarget").path("TeamName").asText(null));
        line(out, "Weight:", q.path("ComputeQuotaTarget").path("FairShareWeight").asText(null));
        line(out, "Activation:", q.path("ActivationState").asText(null));
        JsonNode config = q.path("ComputeQuotaConfig");
        JsonNode sharing = config.path("ResourceSharingConfig");
        line(out, "Sharing:", sharing.path("Strategy").asText("") + (sharing.hasNonNull("BorrowLimit") ? ", BorrowLimit " + sharing.get("BorrowLimit").asText() + "%" : ""));
        line(out, "Preempt:", config.path("PreemptTeamTasks").asText(null));
        out.println("Resources:");
        Table t = new Table("  INSTANCE TYPE", "COUNT", "ACCELERATORS", "VCPU", "MEMORY GIB");
        for (JsonNode r : config.path("ComputeQuotaResources")) {
            t.row("  " + r.path("InstanceType").asText(), r.path("Count").asText(""), r.path("Accelerators").asText(""),
                    r.path("VCpu").asText(""), r.path("MemoryInGiB").asText(""));
        }
        t.print(out);
    }

    private static void line(PrintWriter out, String label, String value) {
        out.println(String.format("%-12s%s", label, value == null || value.isEmpty() ? "<none>" : SafeText.escape(value)));
    }
}
