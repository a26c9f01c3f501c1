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
 * {@code taskgov get teams}: per team and instance type of one cluster, the nominal quota and what the team uses,
 * borrows and lends, and its pending workloads, like {@code kubectl get clusterqueues} with usage. The numbers
 * are admission-service's own ({@code GET /teams?cluster=}, the ledger it decides on and its quota gauges read).
 */
@Command(name = "teams", aliases = {"team"}, mixinStandardHelpOptions = true,
        description = "Teams' nominal quota, used, borrowed and lent (per instance type), and pending workloads, in one cluster.")
public class GetTeamsCommand extends CliCommand {

    private static final List<String> FIGURES = List.of("nominal", "used", "borrowed", "lent");

    @Option(names = {"--team", "-t"}, description = "Only this team.")
    String team;

    @Mixin
    ClusterOption cluster;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        JsonNode answer = endpoints.admission().teams(cluster.arn());
        ArrayNode teams = Json.mapper().createArrayNode();
        for (JsonNode t : answer.path("teams")) if (team == null || team.equals(Views.text(t, "team"))) teams.add(t);
        if (output.structured()) {
            ObjectNode shown = ((ObjectNode) answer.deepCopy()).put("count", teams.size());
            shown.set("teams", teams);
            out().println(output.render(shown));
            return 0;
        }
        if (output.names()) {
            OutputOption.names("team", teams, t -> Views.text(t, "team")).forEach(out()::println);
            return 0;
        }
        if (teams.isEmpty()) {
            err().println("No teams found" + (team == null ? "" : " named " + team) + " in "
                    + (answer.hasNonNull("clusterArn") ? "cluster " + Views.text(answer, "clusterArn") : "the cluster") + ".");
            return 0;
        }
        Table t = output.wide()
                ? new Table("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC/VCPU/GIB)", "USED", "BORROWED", "LENT", "PENDING", "PENDING-REASONS")
                : new Table("TEAM", "INSTANCE-TYPE", "NOMINAL(ACC)", "USED", "BORROWED", "LENT", "PENDING");
        for (JsonNode u : teams) {
            JsonNode byType = u.path("instanceTypes");
            List<String> types = new ArrayList<>();
            byType.fieldNames().forEachRemaining(types::add);
            if (types.isEmpty()) types.add("");
            for (String type : types) {
                JsonNode usage = byType.get(type);
                List<Object> row = new ArrayList<>(List.of(Views.text(u, "team"), type));
                for (String figure : FIGURES) {
                    JsonNode a = usage == null ? null : usage.get(figure);
                    row.add(a == null ? null : output.wide() ? triplet(a) : Views.text(a, "accelerators"));
                }
                row.add(u.path("pending").asLong());
                if (output.wide()) row.add(Views.counts(u.get("pendingByReason")));
                t.row(row.toArray());
            }
        }
        t.print(out());
        return 0;
    }

    private static String triplet(JsonNode a) {
        return Views.text(a, "accelerators") + "/" + Views.text(a, "vcpu") + "/" + Views.text(a, "memoryGiB");
    }
}
