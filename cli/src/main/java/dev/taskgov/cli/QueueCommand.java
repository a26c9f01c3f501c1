package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

import java.util.ArrayList;
import java.util.List;

/** {@code taskgov queue TEAM}: the team's pending workloads in admission order, with why each waits. */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "A team's pending queue: positions (1 = head), the estimated start, and why each workload waits (-o wide: with"
                + " priority and age, messages whole); every governed cluster unless --cluster names one.")
public class QueueCommand extends WatchedCommand {

    @Parameters(paramLabel = "TEAM", description = "Team name (the namespace without hyperpod-ns-).")
    String team;

    @Mixin
    ClusterOption cluster;

    /** The clusters read, resolved on the first poll. */
    private List<String> clusters;

    /** Whether the first poll found the team known (a later poll does not ask again: a watch shows the queue change). */
    private boolean teamChecked;

    @Override
    protected int once() {
        String t = team.startsWith("hyperpod-ns-") ? team.substring("hyperpod-ns-".length()) : team;
        if (clusters == null) clusters = cluster.toRead(endpoints.admission()); // once: --watch polls the queues only
        boolean several = clusters.size() > 1;
        List<JsonNode> queues = new ArrayList<>();
        for (String c : clusters) queues.add(endpoints.admission().pending(t, c));
        if (!teamChecked) {
            requireKnown(t, queues);
            teamChecked = true;
        }
        if (printedAsData(queues, Json.mapper().createObjectNode())) return 0;
        // One table: with several clusters a CLUSTER column says which cluster each entry waits in.
        List<String> counts = new ArrayList<>();
        // By default a line fits 120 columns: what says where each stands and why it waits (messages cut); -o wide
        // adds the priority and the age and shows the messages whole.
        List<String> headers = new ArrayList<>(output.wide()
                ? List.of("POSITION", "NAME", "PRIORITY", "AGE", "START", "REASON", "MESSAGE")
                : List.of("POSITION", "NAME", "START", "REASON", "MESSAGE"));
        if (several) headers.add(0, "CLUSTER");
        Table table = new Table(headers.toArray(String[]::new)).cut("MESSAGE").whole(output.wide());
        int total = 0;
        for (int i = 0; i < queues.size(); i++) {
            JsonNode entries = queues.get(i).path("workloads");
            total += entries.size();
            counts.add(entries.size() + " in " + ClusterOption.shortName(clusters.get(i)));
            for (JsonNode e : entries) {
                List<Object> row = new ArrayList<>();
                if (several) row.add(ClusterOption.shortName(clusters.get(i)));
                row.addAll(List.of(e.path("position").asInt(), Views.text(e, "workloadId")));
                if (output.wide()) row.addAll(java.util.Arrays.asList(Views.text(e, "priority"), Views.age(Views.text(e, "submittedAt"), clock)));
                row.addAll(java.util.Arrays.asList(start(e.path("startEstimate")), Views.text(e, "reason"), Views.text(e, "message")));
                table.row(row.toArray());
            }
        }
        out().println("Team " + t + ": " + total + " pending" + (several ? " (" + String.join(", ", counts) + ")" : ""));
        if (!table.isEmpty()) table.print(out());
        return 0;
    }

    /**
     * An empty queue of a team that none of the clusters read knows (no compute quota there, nothing queued) is an error
     * naming the team, as kubectl's for an unknown name: a mistyped team would otherwise read as an idle one ("0 pending").
     */
    private void requireKnown(String team, List<JsonNode> queues) {
        for (JsonNode q : queues) if (q.path("workloads").size() > 0) return;
        for (String c : clusters) {
            for (JsonNode known : endpoints.admission().teams(c).path("teams")) if (team.equals(Views.text(known, "team"))) return;
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; i < clusters.size(); i++) {
            String arn = Views.text(queues.get(i), "clusterArn");
            names.add(arn != null ? ClusterOption.shortName(arn) : clusters.get(i) != null ? ClusterOption.shortName(clusters.get(i)) : null);
        }
        String where = names.size() > 1 ? "any of the clusters " + names
                : names.get(0) == null ? "the governed cluster" : "cluster " + names.get(0);
        throw CliException.failed("team '" + team + "' is not known on " + where + ": it has no compute quota there and nothing"
                + " queued (taskgov get teams lists the known teams; taskgov quota create gives a team a quota)");
    }

    /**
     * The estimated start in short, for the table ("in about 12 min", "about now", "unknown"); {@code describe workload}
     * shows it whole, with its basis.
     */
    static String start(JsonNode estimate) {
        if (!estimate.isObject()) return null;
        if (!estimate.path("known").asBoolean()) return "unknown";
        String message = Views.text(estimate, "message");
        if (message == null) return null;
        int comma = message.indexOf(", ");
        return comma < 0 ? message : message.substring(0, comma);
    }
}