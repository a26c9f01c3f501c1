package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code taskgov get teams}: per team and instance type of the named cluster, else of every governed one (a CLUSTER
 * column then says which), the nominal quota and what the team uses,
 * borrows and lends, and its pending workloads, like {@code kubectl get clusterqueues} with usage. The numbers
 * are admission-service's own ({@code GET /teams?cluster=}, the ledger it decides on and its quota gauges read).
 */
@Command(name = "teams", aliases = {"team"}, mixinStandardHelpOptions = true,
        description = "Teams' nominal quota, used, borrowed and lent (per instance type), and pending workloads; every governed cluster unless --cluster names one.")
public class GetTeamsCommand extends AnswerCommand {

    private static final List<String> FIGURES = List.of("nominal", "used", "borrowed", "lent");

    @Option(names = {"--team", "-t"}, description = "Only this team.")
    String team;

    @Mixin
    ClusterOption cluster;

    @Override
    protected int run() {
        List<String> clusters = cluster.toRead(endpoints.admission());
        boolean several = clusters.size() > 1;
        List<ObjectNode> answers = new ArrayList<>();
        int count = 0;
        for (String c : clusters) {
            JsonNode answer = endpoints.admission().teams(c);
            ArrayNode teams = Json.mapper().createArrayNode();
            for (JsonNode t : answer.path("teams")) if (team == null || team.equals(Views.text(t, "team"))) teams.add(t);
            ObjectNode shown = ((ObjectNode) answer.deepCopy()).put("count", teams.size());
            shown.set("teams", teams);
            answers.add(shown);
            count += teams.size();
        }
        if (printedAsData(answers, Json.mapper().createObjectNode().put("count", count))) return 0;
        if (output.names()) {
            for (ObjectNode a : answers) OutputOption.names("team", a.path("teams"), t -> Views.text(t, "team")).forEach(out()::println);
            return 0;
        }
        if (count == 0) {
            JsonNode only = answers.get(0);
            err().println("No teams found" + (team == null ? "" : " named " + team) + " in " + (several ? clusters.size() + " clusters"
                    : only.hasNonNull("clusterArn") ? "cluster " + Views.text(only, "clusterArn") : "the cluster") + ".");
            return 0;
        }
        List<String> columns = new ArrayList<>();
        if (several) columns.add("CLUSTER");
        columns.addAll(output.wide()
                ? List.of("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC/VCPU/GIB)", "USED", "BORROWED", "LENT", "PENDING", "PENDING-REASONS")
                : List.of("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC)", "USED", "BORROWED", "LENT", "PENDING"));
        Table t = new Table(columns.toArray(String[]::new));
        for (ObjectNode answer : answers) {
            for (JsonNode u : answer.path("teams")) {
                JsonNode byType = u.path("instanceTypes");
                List<String> types = new ArrayList<>();
                byType.fieldNames().forEachRemaining(types::add);
                if (types.isEmpty()) types.add("");
                for (String type : types) {
                    JsonNode usage = byType.get(type);
                    List<Object> row = new ArrayList<>();
                    if (several) row.add(ClusterOption.shortName(Views.text(answer, "clusterArn")));
                    row.add(Views.text(u, "team"));
                    row.add(type);
                    for (String figure : FIGURES) {
                        JsonNode a = usage == null ? null : usage.get(figure);
                        row.add(a == null ? null : output.wide() ? triplet(a) : Views.acceleratorsAndPartitions(a));
                    }
                    row.add(u.path("pending").asLong());
                    if (output.wide()) row.add(Views.counts(u.get("pendingByReason")));
                    t.row(row.toArray());
                }
            }
        }
        t.print(out());
        return 0;
    }

    private static String triplet(JsonNode a) {
        return Views.acceleratorsAndPartitions(a) + "/" + Views.figure(a, "vcpu") + "/" + Views.figure(a, "memoryGiB");
    }
}
