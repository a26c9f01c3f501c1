package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskgov scheduler-config delete ID}: DeleteClusterSchedulerConfig. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a cluster scheduler config.")
public class SchedulerConfigDeleteCommand extends SageMakerDeleteCommand {

    @Parameters(paramLabel = "ID", description = "ClusterSchedulerConfigId.")
    String id;

    @Override
    protected int run() {
        return delete("clusterschedulerconfig", id, c -> c.deleteClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id)));
    }
}
