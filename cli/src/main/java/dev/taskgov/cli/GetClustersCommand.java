package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov get clusters}: the clusters the deployment governs, with capacity and use. */
@Command(name = "clusters", aliases = {"cluster"}, mixinStandardHelpOptions = true,
        description = "List the clusters this deployment governs: nodes, capacity, the sum of its quotas, what runs, workloads.")
public class GetClustersCommand extends AnswerCommand {

    @Override
    protected int run() {
        JsonNode answer = endpoints.admission().clusters();
        JsonNode clusters = answer.path("clusters");
        if (printedAsData(answer)) return 0;
        if (output.names()) {
            OutputOption.names("cluster", clusters, c -> Views.text(c, "clusterArn")).forEach(out()::println);
            return 0;
        }
        // By default a line fits 120 columns: the cluster's short id and accelerators per instance type; -o wide
        // adds the ARN, every resource and the policy.
        Table t = output.wide() ? new Table("CLUSTER", "ARN", "NODES", "CAPACITY", "QUOTA", "USED", "WORKLOADS", "FAIRSHARE", "CLASSES")
                : new Table("CLUSTER", "NODES", "CAPACITY(ACC)", "QUOTA(ACC)", "USED(ACC)", "WORKLOADS").cut("WORKLOADS");
        for (JsonNode c : clusters) {
            String arn = c.hasNonNull("clusterArn") ? Views.text(c, "clusterArn") : null;
            List<Object> row = new ArrayList<>(List.of(ClusterOption.shortName(arn)));
            if (output.wide()) row.add(arn == null ? "(unnamed)" : arn);
            row.add(c.path("readyNodes").asInt() + "/" + c.path("nodes").asInt());
            if (output.wide()) {
                row.addAll(List.of(amounts(c.get("capacity")), amounts(c.get("quota")), amounts(c.get("used"))));
            } else {
                row.addAll(List.of(accelerators(c.get("capacity")), accelerators(c.get("quota")), accelerators(c.get("used"))));
            }
            row.add(Views.counts(c.get("workloads")));
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

    /** Accelerators per instance type ("ml.p5.48xlarge=256"), or "-" when there are none. */
    private static String accelerators(JsonNode byType) {
        if (byType == null || !byType.isObject() || byType.isEmpty()) return "-";
        List<String> parts = new ArrayList<>();
        byType.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + e.getValue().path("accelerators").asText("0")));
        return String.join(",", parts);
    }

    /** Amounts per instance type, or "-" when there are none (a cluster without quotas, or nothing used). */
    private static String amounts(JsonNode byType) {
        String shown = Views.amounts(byType);
        return shown == null ? "-" : shown;
    }
}
