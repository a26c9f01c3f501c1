package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import software.amazon.awssdk.services.sagemaker.model.CreateClusterSchedulerConfigRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateClusterSchedulerConfigResponse;

/** {@code taskgov scheduler-config create}: CreateClusterSchedulerConfig. */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create the cluster scheduler config.")
public class SchedulerConfigCreateCommand extends CliCommand {

    @Option(names = "--name")
    String name;

    @Option(names = "--cluster-arn", defaultValue = "${env:TASKGOV_CLUSTER_ARN:-${env:TASKGOV_CLUSTER}}", description = "The HyperPod cluster ARN (env TASKGOV_CLUSTER_ARN, else TASKGOV_CLUSTER).")
    String clusterArn;

    @Mixin
    SchedulerConfigFlags flags;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        ObjectNode r = flags.apply(SageMakerJson.NODES.objectNode());
        if (name != null) r.put("Name", name);
        if (clusterArn != null) r.put("ClusterArn", clusterArn);
        SageMakerJson.onlyKnown(r, "$", "Name", "ClusterArn", "SchedulerConfig", "Description", "Tags");
        CreateClusterSchedulerConfigRequest request = CreateClusterSchedulerConfigRequest.builder()
                .name(SageMakerJson.text(r, "Name", "$"))
                .clusterArn(SageMakerJson.text(r, "ClusterArn", "$"))
                .description(SageMakerJson.text(r, "Description", "$"))
                .schedulerConfig(SageMakerJson.schedulerConfig(r.get("SchedulerConfig"), "$.SchedulerConfig"))
                .tags(SageMakerJson.tags(r.get("Tags"), "$.Tags"))
                .build();
        CreateClusterSchedulerConfigResponse response = SageMakerClients.call(endpoints.quota(), c -> c.createClusterSchedulerConfig(request));
        if (output.structured()) out().println(output.render(SageMakerJson.toJson(response)));
        else out().println("clusterschedulerconfig/" + response.clusterSchedulerConfigId() + " created (" + response.clusterSchedulerConfigArn() + ")");
        return 0;
    }
}
