package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskgov scheduler-config describe ID}: DescribeClusterSchedulerConfig. */
@Command(name = "describe", mixinStandardHelpOptions = true, description = "Show the cluster scheduler config.")
public class SchedulerConfigDescribeCommand extends AnswerCommand {

    @Parameters(paramLabel = "ID", description = "ClusterSchedulerConfigId.")
    String id;

    @Override
    protected int run() {
        JsonNode json = SageMakerJson.toJson(SageMakerClients.call(endpoints,
                c -> c.describeClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id))));
        if (printedAsData(json)) return 0;
        var out = out();
        out.println(String.format("%-12s%s", "Name:", json.path("Name").asText()));
        out.println(String.format("%-12s%s", "Id:", json.path("ClusterSchedulerConfigId").asText()));
        out.println(String.format("%-12s%s", "Version:", json.path("ClusterSchedulerConfigVersion").asText()));
        out.println(String.format("%-12s%s", "Status:", json.path("Status").asText()));
        out.println(String.format("%-12s%s", "Cluster:", json.path("ClusterArn").asText()));
        out.println(String.format("%-12s%s", "FairShare:", json.path("SchedulerConfig").path("FairShare").asText()));
        out.println("Priority classes:");
        Table t = new Table("  NAME", "WEIGHT");
        for (JsonNode pc : json.path("SchedulerConfig").path("PriorityClasses")) t.row("  " + pc.path("Name").asText(), pc.path("Weight").asText());
        t.print(out);
        return 0;
    }
}
