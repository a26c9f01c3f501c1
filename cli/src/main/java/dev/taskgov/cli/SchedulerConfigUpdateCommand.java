package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.services.sagemaker.model.DescribeClusterSchedulerConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.UpdateClusterSchedulerConfigResponse;

/** {@code taskgov scheduler-config update ID}: UpdateClusterSchedulerConfig, starting from the current config. */
@Command(name = "update", mixinStandardHelpOptions = true, description = "Update the cluster scheduler config; unspecified fields keep their values.")
public class SchedulerConfigUpdateCommand extends AnswerCommand {

    @Parameters(paramLabel = "ID", description = "ClusterSchedulerConfigId.")
    String id;

    @Option(names = "--target-version", description = "The version being updated (default: the current one).")
    Integer targetVersion;

    @Mixin
    SchedulerConfigFlags flags;

    @Override
    protected int run() {
        DescribeClusterSchedulerConfigResponse current = SageMakerClients.call(endpoints,
                c -> c.describeClusterSchedulerConfig(b -> b.clusterSchedulerConfigId(id)));
        ObjectNode r = SageMakerJson.NODES.objectNode();
        r.set("SchedulerConfig", SageMakerJson.toJson(current.schedulerConfig()));
        flags.apply(r);
        SageMakerJson.onlyKnown(r, "$", "ClusterSchedulerConfigId", "TargetVersion", "SchedulerConfig", "Description");
        int version = targetVersion != null ? targetVersion : current.clusterSchedulerConfigVersion();
        UpdateClusterSchedulerConfigResponse response = SageMakerClients.call(endpoints, c -> c.updateClusterSchedulerConfig(b -> b
                .clusterSchedulerConfigId(id).targetVersion(version)
                .schedulerConfig(SageMakerJson.schedulerConfig(r.get("SchedulerConfig"), "$.SchedulerConfig"))
                .description(SageMakerJson.text(r, "Description", "$"))));
        printAnswer(SageMakerJson.toJson(response), "clusterschedulerconfig/" + id + " updated to version " + response.clusterSchedulerConfigVersion());
        return 0;
    }
}
