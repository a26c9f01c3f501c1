package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code taskgov get topology}: topology-service's {@code GET /topology}, the network tree (layer-1 → layer-2 →
 * layer-3) with ready nodes, capacity and free capacity per domain; {@code -o wide} lists the nodes under
 * their layer-3 domain too, {@code -o name} prints {@code node/NAME} per node.
 */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = "The network topology tree with capacity and free capacity per domain (-o wide: and per node).")
public class GetTopologyCommand extends AnswerCommand {

    private static final String LEVEL_PREFIX = "topology.k8s.aws/network-node-";

    @Mixin
    ClusterOption cluster = new ClusterOption();

    @Override
    protected int run() {
        // With several clusters topology-service needs to be told which one (the same --cluster / TASKGOV_CLUSTER rule).
        String arn = cluster.arn();
        JsonNode tree = endpoints.topologyHttp().get("/topology"
                + (arn == null ? "" : "?cluster=" + java.net.URLEncoder.encode(arn, java.nio.charset.StandardCharsets.UTF_8)));
        if (tree == null) throw CliException.failed("topology-service answered GET /topology with something that is not JSON");
        if (printedAsData(tree)) return 0;
        if (output.names()) {
            List<String> nodes = new ArrayList<>();
            collectNodes(tree.path("domains"), nodes);
            nodes.forEach(n -> out().println("node/" + n));
            return 0;
        }
        Table t = output.wide() ? new Table("DOMAIN", "LEVEL", "READY", "NOT-READY", "CAPACITY", "FREE", "INSTANCE-TYPE")
                : new Table("DOMAIN", "LEVEL", "READY", "NOT-READY", "CAPACITY", "FREE");
        row(t, "(all)", "cluster", tree, null);
        addDomains(t, tree.path("domains"), 1);
        t.print(out());
        return 0;
    }

    private void addDomains(Table t, JsonNode domains, int depth) {
        for (JsonNode d : domains) {
            row(t, "  ".repeat(depth) + Views.text(d, "value"), shortLevel(Views.text(d, "level")), d, null);
            addDomains(t, d.path("children"), depth + 1);
            if (!output.wide()) continue;
            for (JsonNode n : d.path("nodes")) {
                t.row("  ".repeat(depth + 1) + Views.text(n, "name"), "node", n.path("ready").asBoolean() ? 1 : 0,
                        n.path("ready").asBoolean() ? 0 : 1, Views.resources(n.path("allocatable")), Views.resources(n.path("free")),
                        Views.text(n, "instanceType"));
            }
        }
    }

    private void row(Table t, String name, String level, JsonNode d, String instanceType) {
        List<Object> cells = new ArrayList<>(List.of(name, level, d.path("readyNodes").asInt(), d.path("notReadyNodes").asInt(),
                Views.resources(d.path("capacity")), Views.resources(d.path("free"))));
        if (output.wide()) cells.add(instanceType);
        t.row(cells.toArray());
    }

    private static void collectNodes(JsonNode domains, List<String> into) {
        for (JsonNode d : domains) {
            collectNodes(d.path("children"), into);
            for (JsonNode n : d.path("nodes")) into.add(Views.text(n, "name"));
        }
    }

    private static String shortLevel(String level) {
        return level != null && level.startsWith(LEVEL_PREFIX) ? level.substring(LEVEL_PREFIX.length()) : level;
    }
}
