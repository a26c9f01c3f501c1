package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code taskgov scheduler-config list}: ListClusterSchedulerConfigs (all pages). */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List cluster scheduler configs.")
public class SchedulerConfigListCommand extends AnswerCommand {

    @Option(names = "--cluster-arn")
    String clusterArn;

    @Override
    protected int run() {
        ArrayNode json = SageMakerClients.call(endpoints, c -> {
            ArrayNode acc = SageMakerJson.NODES.arrayNode();
            c.listClusterSchedulerConfigsPaginator(b -> b.clusterArn(clusterArn))
                    .forEach(page -> page.clusterSchedulerConfigSummaries().forEach(s -> acc.add(SageMakerJson.toJson(s))));
            return acc;
        });
        if (printedAsData(SageMakerJson.NODES.objectNode().set("ClusterSchedulerConfigSummaries", json))) return 0;
        if (output.names()) {
            OutputOption.names("clusterschedulerconfig", json, s -> s.path("ClusterSchedulerConfigId").asText()).forEach(out()::println);
            return 0;
        }
        Table t = new Table("NAME", "ID", "VERSION", "STATUS", "CLUSTER");
        for (JsonNode s : json) {
            t.row(s.path("Name").asText(), s.path("ClusterSchedulerConfigId").asText(), s.path("ClusterSchedulerConfigVersion").asText(),
                    s.path("Status").asText(), s.path("ClusterArn").asText());
        }
        if (t.isEmpty()) err().println("No cluster scheduler configs found.");
        else t.print(out());
        return 0;
    }
}
