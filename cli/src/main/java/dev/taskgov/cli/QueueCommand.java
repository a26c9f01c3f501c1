package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov queue TEAM}: the team's pending workloads in admission order, with why each waits. */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "A team's pending queue: positions (1 = head), priority, and why each workload waits.")
public class QueueCommand extends WatchedCommand {

    @Parameters(paramLabel = "TEAM", description = "Team name (the namespace without hyperpod-ns-).")
    String team;

    @Mixin
    ClusterOption cluster;

    /** The clusters read, resolved on the first poll. */
    private List<String> clusters;

    @Override
    protected int once() {
        String t = team.startsWith("hyperpod-ns-") ? team.substring("hyperpod-ns-".length()) : team;
        if (clusters == null) clusters = cluster.toRead(endpoints.admission()); // once: --watch polls the queues only
        boolean several = clusters.size() > 1;
        List<JsonNode> queues = new ArrayList<>();
        for (String c : clusters) queues.add(endpoints.admission().pending(t, c));
        if (printedAsData(queues, Json.mapper().createObjectNode())) return 0;
        for (int i = 0; i < queues.size(); i++) {
            JsonNode entries = queues.get(i).path("workloads");
            out().println("Team " + t + (several ? " in cluster " + ClusterOption.shortName(clusters.get(i)) : "") + ": "
                    + entries.size() + " pending");
            if (entries.isEmpty()) continue;
            Table table = new Table("POSITION", "NAME", "PRIORITY", "AGE", "REASON", "MESSAGE");
            for (JsonNode e : entries) {
                table.row(e.path("position").asInt(), Views.text(e, "workloadId"), Views.text(e, "priority"),
                        Views.age(Views.text(e, "submittedAt"), clock), Views.text(e, "reason"), Views.text(e, "message"));
            }
            table.print(out());
        }
        return 0;
    }
}
