package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaSummary;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov quota list}: SageMaker ListComputeQuotas (all pages). */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List compute quotas (ListComputeQuotas).")
public class QuotaListCommand extends AnswerCommand {

    @Option(names = "--cluster-arn", description = "Only this cluster's quotas.")
    String clusterArn;

    @Option(names = "--name-contains")
    String nameContains;

    @Option(names = "--status", description = "Creating, Created, Updating, Updated, Deleting, Deleted, ... (SchedulerResourceStatus).")
    String status;

    @Override
    protected int run() {
        List<ComputeQuotaSummary> all = SageMakerClients.call(endpoints, c -> {
            List<ComputeQuotaSummary> acc = new ArrayList<>();
            c.listComputeQuotasPaginator(b -> b.clusterArn(clusterArn).nameContains(nameContains).status(status))
                    .forEach(page -> acc.addAll(page.computeQuotaSummaries()));
            return acc;
        });
        ArrayNode json = SageMakerJson.NODES.arrayNode();
        all.forEach(s -> json.add(SageMakerJson.toJson(s)));
        if (printedAsData(SageMakerJson.NODES.objectNode().set("ComputeQuotaSummaries", json))) return 0;
        if (output.names()) {
            OutputOption.names("computequota", json, q -> q.path("ComputeQuotaId").asText()).forEach(out()::println);
            return 0;
        }
        Table t = output.wide() ? new Table("NAME", "ID", "TEAM", "WEIGHT", "STATUS", "SHARING", "RESOURCES", "PREEMPT", "ACTIVATION", "CLUSTER")
                : new Table("NAME", "ID", "TEAM", "WEIGHT", "STATUS", "SHARING", "RESOURCES").cut("RESOURCES");
        for (JsonNode q : json) {
            JsonNode config = q.path("ComputeQuotaConfig");
            JsonNode sharing = config.path("ResourceSharingConfig");
            List<String> resources = new ArrayList<>();
            for (JsonNode r : config.path("ComputeQuotaResources")) {
                StringBuilder sb = new StringBuilder(r.path("InstanceType").asText());
                for (String f : List.of("Count", "Accelerators", "VCpu", "MemoryInGiB")) {
                    if (r.hasNonNull(f)) sb.append(' ').append(f).append('=').append(r.get(f).asText());
                }
                resources.add(sb.toString());
            }
            List<Object> row = new ArrayList<>(java.util.Arrays.asList(q.path("Name").asText(), q.path("ComputeQuotaId").asText(),
                    q.path("ComputeQuotaTarget").path("TeamName").asText(), q.path("ComputeQuotaTarget").path("FairShareWeight").asText(),
                    q.path("Status").asText(),
                    sharing.path("Strategy").asText("") + (sharing.hasNonNull("BorrowLimit") ? " " + sharing.get("BorrowLimit").asText() + "%" : ""),
                    String.join("; ", resources)));
            if (output.wide()) {
                row.addAll(java.util.Arrays.asList(config.path("PreemptTeamTasks").asText(""), q.path("ActivationState").asText(""), q.path("ClusterArn").asText("")));
            }
            t.row(row.toArray());
        }
        if (t.isEmpty()) err().println("No compute quotas found.");
        else t.print(out());
        return 0;
    }
}
