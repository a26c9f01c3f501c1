package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import software.amazon.awssdk.services.sagemaker.model.CreateClusterSchedulerConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateClusterSchedulerConfigResponse;

/** {@code taskgov scheduler-config create}: CreateClusterSchedulerConfig. */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create the cluster scheduler config.")
public class SchedulerConfigCreateCommand extends AnswerCommand {

    @Mixin
    NewResourceOptions resource;

    @Mixin
    SchedulerConfigFlags flags;

    @Override
    protected int run() {
        ObjectNode r = resource.apply(flags.apply(SageMakerJson.NODES.objectNode()));
        SageMakerJson.onlyKnown(r, "$", "Name", "ClusterArn", "SchedulerConfig", "Description", "Tags");
        CreateClusterSchedulerConfigRequest request = CreateClusterSchedulerConfigRequest.builder()
                .name(SageMakerJson.text(r, "Name", "$"))
                .clusterArn(SageMakerJson.text(r, "ClusterArn", "$"))
                .description(SageMakerJson.text(r, "Description", "$"))
                .schedulerConfig(SageMakerJson.schedulerConfig(r.get("SchedulerConfig"), "$.SchedulerConfig"))
                .tags(SageMakerJson.tags(r.get("Tags"), "$.Tags"))
                .build();
        CreateClusterSchedulerConfigResponse response = SageMakerClients.call(endpoints, c -> c.createClusterSchedulerConfig(request));
        printAnswer(SageMakerJson.toJson(response), "clusterschedulerconfig/" + response.clusterSchedulerConfigId() + " created (" + response.clusterSchedulerConfigArn() + ")");
        return 0;
    }
}
