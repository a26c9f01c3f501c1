package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov get clusters}: the clusters the deployment governs, with capacity and use. */
@Command(name = "clusters", aliases = {"cluster"}, mixinStandardHelpOptions = true,
        description = "List the clusters this deployment governs: nodes, capacity, the sum of its quotas, what runs, workloads.")
public class GetClustersCommand extends CliCommand {

    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        JsonNode answer = endpoints.admission().clusters();
        JsonNode clusters = answer.path("clusters");
        if (output.structured()) {
            out().println(output.render(answer));
            return 0;
        }
        if (output.names()) {
            OutputOption.names("cluster", clusters, c -> Views.text(c, "clusterArn")).forEach(out()::println);
            return 0;
        }
        Table t = output.wide() ? new Table("CLUSTER", "NODES", "CAPACITY", "QUOTA", "USED", "WORKLOADS", "FAIRSHARE", "CLASSES")
                : new Table("CLUSTER", "NODES", "CAPACITY", "QUOTA", "USED", "WORKLOADS");
        for (JsonNode c : clusters) {
            List<Object> row = new ArrayList<>(List.of(c.hasNonNull("clusterArn") ? Views.text(c, "clusterArn") : "(unnamed)",
                    c.path("readyNodes").asInt() + "/" + c.path("nodes").asInt(), amounts(c.get("capacity")),
                    amounts(c.get("quota")), amounts(c.get("used")), Views.counts(c.get("workloads"))));
            if (output.wide()) {
                row.add(c.path("fairShare").asBoolean() ? "Enabled" : "Disabled");
                row.add(Views.counts(c.get("priorityClasses")));
            }
            t.row(row.toArray());
        }
        if (t.isEmpty()) err().println("No clusters governed yet (topology-service declares them).");
        else t.print(out());
        return 0;
    }

    /** Amounts per instance type, or "-" when there are none (a cluster without quotas, or nothing used). */
    private static String amounts(JsonNode byType) {
        String shown = Views.amounts(byType);
        return shown == null ? "-" : shown;
    }
}
