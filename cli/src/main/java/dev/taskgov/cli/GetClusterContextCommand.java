package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code taskgov get-cluster-context}: what {@code set-cluster-context} chose (as hyp get-cluster-context). */
@Command(name = "get-cluster-context", description = "Show the cluster (and namespace) set with set-cluster-context.")
public class GetClusterContextCommand extends CliCommand {

    @Mixin
    HelpOption help;

    @Override
    protected int run() {
        ClusterContext context = ClusterContext.current().orElseThrow(() -> CliException.invalid(
                "no cluster context is set (" + ClusterContext.file() + "); taskgov set-cluster-context --cluster-name NAME sets one"));
        ObjectNode o = EventCodec.mapper().createObjectNode();
        o.put("clusterArn", context.cluster());
        if (context.namespace() != null) o.put("namespace", context.namespace());
        o.put("file", ClusterContext.file().toAbsolutePath().toString());
        out().println(Json.pretty(o));
        return 0;
    }
}
