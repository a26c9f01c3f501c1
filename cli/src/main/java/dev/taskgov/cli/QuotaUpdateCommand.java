package dev.taskgov.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import software.amazon.awssdk.services.sagemaker.model.DescribeComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.UpdateComputeQuotaRequest;
import software.amazon.awssdk.services.sagemaker.model.UpdateComputeQuotaResponse;

/**
 * {@code taskgov quota update ID}: SageMaker UpdateComputeQuota. The request starts from the quota's
 * current config and target, so a single flag (say {@code --borrow-limit 100}) changes only that field.
 */
@Command(name = "update", mixinStandardHelpOptions = true,
        description = "Update a compute quota (UpdateComputeQuota); unspecified fields keep their current values.")
public class QuotaUpdateCommand extends AnswerCommand {

    @Parameters(paramLabel = "ID", arity = "0..1", description = "ComputeQuotaId (or ComputeQuotaId in --cli-input-json).")
    String id;

    @Option(names = "--target-version", description = "The version being updated (default: the current one).")
    Integer targetVersion;

    @Mixin
    QuotaFlags flags;

    @Override
    protected int run() {
        ObjectNode input = SageMakerJson.input(flags.cliInputJson);
        SageMakerJson.onlyKnown(input, "$", "ComputeQuotaId", "TargetVersion", "ComputeQuotaConfig", "ComputeQuotaTarget",
                "ActivationState", "Description");
        String quotaId = id != null ? id : SageMakerJson.text(input, "ComputeQuotaId", "$");
        if (quotaId == null) throw CliException.invalid("ID (or ComputeQuotaId in --cli-input-json) is required");
        DescribeComputeQuotaResponse current = SageMakerClients.call(endpoints, c -> c.describeComputeQuota(b -> b.computeQuotaId(quotaId)));
        ObjectNode r = SageMakerJson.NODES.objectNode();
        r.set("ComputeQuotaConfig", SageMakerJson.toJson(current.computeQuotaConfig()));
        r.set("ComputeQuotaTarget", SageMakerJson.toJson(current.computeQuotaTarget()));
        flags.apply(r);
        Integer version = targetVersion != null ? targetVersion
                : r.has("TargetVersion") ? SageMakerJson.integer(r, "TargetVersion", "$") : current.computeQuotaVersion();
        UpdateComputeQuotaRequest request = UpdateComputeQuotaRequest.builder()
                .computeQuotaId(quotaId)
                .targetVersion(version)
                .computeQuotaConfig(SageMakerJson.computeQuotaConfig(r.get("ComputeQuotaConfig"), "$.ComputeQuotaConfig"))
                .computeQuotaTarget(SageMakerJson.computeQuotaTarget(r.get("ComputeQuotaTarget"), "$.ComputeQuotaTarget"))
                .activationState(SageMakerJson.text(r, "ActivationState", "$"))
                .description(SageMakerJson.text(r, "Description", "$"))
                .build();
        UpdateComputeQuotaResponse response = SageMakerClients.call(endpoints, c -> c.updateComputeQuota(request));
        printAnswer(SageMakerJson.toJson(response), "computequota/" + quotaId + " updated to version " + response.computeQuotaVersion());
        return 0;
    }
}
