package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.List;

/** {@code taskgov get workloads [--team T] [--state S]}: a table like {@code kubectl get workloads}. */
@Command(name = "workloads", aliases = {"workload", "wl"}, mixinStandardHelpOptions = true,
        description = "List workloads with their state and reason, optionally of one team and in one state.")
public class GetWorkloadsCommand extends WatchedCommand {

    @Option(names = {"--team", "-t"}, description = "Only this team's workloads.")
    String team;

    @Option(names = "--state", description = "Only workloads in this state: Pending, Admitted, Finished, Rejected.")
    String state;

    @Mixin
    ClusterOption cluster;

    @Override
    protected int once() {
        JsonNode list = endpoints.admission().workloads(cluster.arn(), team, state);
        if (printedAsData(list)) return 0;
        if (output.names()) {
            OutputOption.names("workload", list, w -> Views.text(w, "workloadId")).forEach(out()::println);
            return 0;
        }
        Table t = output.wide() ? new Table("NAME", "TEAM", "STATE", "REASON", "BORROWED", "AGE", "MESSAGE")
                : new Table("NAME", "TEAM", "STATE", "REASON", "BORROWED", "AGE");
        for (JsonNode w : list) {
            List<Object> row = new java.util.ArrayList<>(java.util.Arrays.asList(Views.text(w, "workloadId"), Views.text(w, "team"),
                    Views.text(w, "state"), Views.text(w, "reason"), Views.amounts(w.get("borrowed")),
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
}
