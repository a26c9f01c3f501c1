package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code taskgov quota create}: SageMaker CreateComputeQuota. */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a team's compute quota (CreateComputeQuota).")
public class QuotaCreateCommand extends CliCommand {

    @Option(names = "--name", description = "The quota's name.")
    String name;

    @Option(names = "--cluster-arn", defaultValue = "${env:TASKGOV_CLUSTER_ARN:-${env:TASKGOV_CLUSTER}}", description = "The HyperPod cluster ARN (env TASKGOV_CLUSTER_ARN, else TASKGOV_CLUSTER).")
    String clusterArn;

    @Mixin
    QuotaFlags flags;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        ObjectNode r = SageMakerJson.NODES.objectNode();
        flags.apply(r);
        if (name != null) r.put("Name", name);
        if (clusterArn != null) r.put("ClusterArn", clusterArn);
        SageMakerJson.onlyKnown(r, "$", "Name", "Description", "ClusterArn", "ComputeQuotaConfig", "ComputeQuotaTarget",
                "ActivationState", "Tags");
        CreateComputeQuotaRequest request = CreateComputeQuotaRequest.builder()
                .name(SageMakerJson.text(r, "Name", "$"))
                .description(SageMakerJson.text(r, "Description", "$"))
                .clusterArn(SageMakerJson.text(r, "ClusterArn", "$"))
                .computeQuotaConfig(SageMakerJson.computeQuotaConfig(r.get("ComputeQuotaConfig"), "$.ComputeQuotaConfig"))
                .computeQuotaTarget(SageMakerJson.computeQuotaTarget(r.get("ComputeQuotaTarget"), "$.ComputeQuotaTarget"))
                .activationState(SageMakerJson.text(r, "ActivationState", "$"))
                .tags(SageMakerJson.tags(r.get("Tags"), "$.Tags"))
                .build();
        CreateComputeQuotaResponse response = SageMakerClients.call(endpoints.quota(), c -> c.createComputeQuota(request));
        if (output.structured()) out().println(output.render(SageMakerJson.toJson(response)));
        else out().println("computequota/" + response.computeQuotaId() + " created (" + response.computeQuotaArn() + ")");
        return 0;
    }
}
