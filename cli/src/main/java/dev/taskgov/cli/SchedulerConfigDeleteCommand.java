package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskgov scheduler-config delete ID}: DeleteClusterSchedulerConfig. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a cluster scheduler config.")
public class SchedulerConfigDeleteCommand extends ServiceCommand {

    @Parameters(paramLabel = "ID", description = "ClusterSchedulerConfigId.")
    String id;

    @Override
    protected int run() {
        SageMakerClients.call(endpoints, c -> c.deleteClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id)));
        out().println("clusterschedulerconfig/" + id + " deleted");
        return 0;
    }
}
