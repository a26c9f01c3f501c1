package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaRequest;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaResponse;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code taskgov quota create}: SageMaker CreateComputeQuota. */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a team's compute quota (CreateComputeQuota).")
public class QuotaCreateCommand extends AnswerCommand {

    @Mixin
    NewResourceOptions resource;

    @Mixin
    QuotaFlags flags;

    @Override
    protected int run() {
        ObjectNode r = resource.apply(flags.apply(SageMakerJson.NODES.objectNode()));
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
        CreateComputeQuotaResponse response = SageMakerClients.call(endpoints, c -> c.createComputeQuota(request));
        printAnswer(SageMakerJson.toJson(response), "computequota/" + response.computeQuotaId() + " created (" + response.computeQuotaArn() + ")");
        return 0;
    }
}
