package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

/** {@code taskgov get workloads [--team T] [--state S]}: a table like {@code kubectl get workloads}. */
@Command(name = "workloads", aliases = {"workload", "wl"}, mixinStandardHelpOptions = true,
        description = "List workloads with their state and reason, optionally of one team and in one state; every governed cluster unless --cluster names one (-o wide: and their messages).")
public class GetWorkloadsCommand extends WatchedCommand {

    @Option(names = {"--team", "-t"}, description = "Only this team's workloads.")
    String team;

    @Option(names = "--state", description = "Only workloads in this state: Pending, Admitted, Finished, Rejected.")
    String state;

    @Mixin
    ClusterOption cluster;

    /** The clusters read, resolved on the first poll. */
    private List<String> clusters;

    @Override
    protected int once() {
        JsonNode list = endpoints.admission().workloads(cluster.arn(), team, state);
        if (printedAsData(list)) return 0;
        if (output.names()) {
            OutputOption.names("workload", list, w -> Views.text(w, "workloadId")).forEach(out()::println);
            return 0;
        }
        // Without --cluster the list covers every governed cluster: with several, a CLUSTER column says which. By default
        // a line fits 120 columns (borrowed accelerators per instance type); -o wide shows every resource and the message.
        if (clusters == null) clusters = cluster.toRead(endpoints.admission()); // once: --watch polls the workloads only
        boolean several = clusters.size() > 1;
        List<String> headers = new java.util.ArrayList<>(List.of("NAME", "TEAM", "STATE", "REASON", output.wide() ? "BORROWED" : "BORROWED(ACC)", "AGE"));
        if (several) headers.add(0, "CLUSTER");
        if (output.wide()) headers.add("MESSAGE");
        Table t = new Table(headers.toArray(String[]::new)).cut("BORROWED(ACC)").whole(output.wide());
        for (JsonNode w : list) {
            List<Object> row = new java.util.ArrayList<>();
            if (several) row.add(ClusterOption.shortName(Views.text(w, "clusterArn")));
            row.addAll(java.util.Arrays.asList(Views.text(w, "workloadId"), Views.text(w, "team"),
                    Views.text(w, "state"), Views.text(w, "reason"), output.wide() ? Views.amounts(w.get("borrowed")) : accelerators(w.get("borrowed")),
                    Views.age(Views.text(w, "submittedAt"), clock)));
            if (output.wide()) row.add(Views.text(w, "message"));
            t.row(row.toArray());
        }
        if (t.isEmpty()) {
            err().println("No workloads found" + (team == null ? "" : " for team " + team) + (state == null ? "" : " in state " + state) + ".");
        } else {
            t.print(out());
        }
        return 0;
    }

    /** Accelerators (and partitions) per instance type, "ml.p5.48xlarge=16"; null when nothing is borrowed. */
    private static String accelerators(JsonNode byType) {
        if (byType == null || !byType.isObject() || byType.isEmpty()) return null;
        List<String> parts = new java.util.ArrayList<>();
        byType.fields().forEachRemaining(e -> parts.add(e.getKey() + "=" + Views.acceleratorsAndPartitions(e.getValue())));
        return String.join(",", parts);
    }
}
