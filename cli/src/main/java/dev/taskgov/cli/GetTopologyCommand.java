package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code taskgov get topology}: topology-service's {@code GET /topology}, the network tree (layer-1 → layer-2 →
 * layer-3) with ready nodes, capacity and free capacity per domain, of the named cluster, else of every governed one
 * (a CLUSTER column then says which); {@code -o wide} shows every resource and lists the nodes under their layer-3
 * domain too, {@code -o name} prints {@code node/NAME} per node.
 */
@Command(name = "topology", mixinStandardHelpOptions = true,
        description = "The network topology tree with capacity and free accelerators per domain (-o wide: every resource, and per node);"
                + " every governed cluster unless --cluster names one.")
public class GetTopologyCommand extends AnswerCommand {

    private static final String LEVEL_PREFIX = "topology.k8s.aws/network-node-";

    @Mixin
    ClusterOption cluster = new ClusterOption();

    /** The cluster column's value on the rows being added, or null while one cluster is shown. */
    private String clusterCell;

    @Override
    protected int run() {
        // Every governed cluster unless one is named; topology-service is asked for each by name.
        List<String> clusters = cluster.toRead(endpoints.admission());
        boolean several = clusters.size() > 1;
        List<JsonNode> trees = new ArrayList<>();
        for (String arn : clusters) {
            JsonNode tree = endpoints.topologyHttp().get("/topology"
                    + (arn == null ? "" : "?cluster=" + java.net.URLEncoder.encode(arn, java.nio.charset.StandardCharsets.UTF_8)));
            if (tree == null) throw CliException.failed("topology-service answered GET /topology with something that is not JSON");
            if (several && tree.isObject()) ((com.fasterxml.jackson.databind.node.ObjectNode) tree).put("clusterArn", arn);
            trees.add(tree);
        }
        if (printedAsData(trees, Json.mapper().createObjectNode())) return 0;
        if (output.names()) {
            List<String> nodes = new ArrayList<>();
            for (JsonNode tree : trees) collectNodes(tree.path("domains"), nodes);
            nodes.forEach(n -> out().println("node/" + n));
            return 0;
        }
        // By default a line fits 120 columns: accelerators (and partitions) per domain; -o wide adds every resource,
        // the nodes and their instance types.
        List<String> headers = new ArrayList<>(output.wide()
                ? List.of("DOMAIN", "LEVEL", "READY", "NOT-READY", "CAPACITY", "FREE", "INSTANCE-TYPE")
                : List.of("DOMAIN", "LEVEL", "READY", "NOT-READY", "CAPACITY(ACC)", "FREE(ACC)"));
        if (several) headers.add(0, "CLUSTER");
        Table t = new Table(headers.toArray(String[]::new)).whole(output.wide());
        for (int i = 0; i < trees.size(); i++) {
            clusterCell = several ? ClusterOption.shortName(clusters.get(i)) : null;
            row(t, "(all)", "cluster", trees.get(i), null);
            addDomains(t, trees.get(i).path("domains"), 1);
        }
        t.print(out());
        return 0;
    }

    private void addDomains(Table t, JsonNode domains, int depth) {
        for (JsonNode d : domains) {
            row(t, "  ".repeat(depth) + Views.text(d, "value"), shortLevel(Views.text(d, "level")), d, null);
            addDomains(t, d.path("children"), depth + 1);
            if (!output.wide()) continue;
            for (JsonNode n : d.path("nodes")) {
                List<Object> cells = new ArrayList<>();
                if (clusterCell != null) cells.add(clusterCell);
                cells.addAll(List.of("  ".repeat(depth + 1) + Views.text(n, "name"), "node", n.path("ready").asBoolean() ? 1 : 0,
                        n.path("ready").asBoolean() ? 0 : 1, Views.resources(n.path("allocatable")), Views.resources(n.path("free")),
                        Views.text(n, "instanceType")));
                t.row(cells.toArray());
            }
        }
    }

    private void row(Table t, String name, String level, JsonNode d, String instanceType) {
        List<Object> cells = new ArrayList<>();
        if (clusterCell != null) cells.add(clusterCell);
        cells.addAll(List.of(name, level, d.path("readyNodes").asInt(), d.path("notReadyNodes").asInt()));
        if (output.wide()) {
            cells.addAll(List.of(Views.resources(d.path("capacity")), Views.resources(d.path("free"))));
            cells.add(instanceType);
        } else {
            cells.addAll(List.of(Views.acceleratorsAndPartitions(d.path("capacity")), Views.acceleratorsAndPartitions(d.path("free"))));
        }
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
