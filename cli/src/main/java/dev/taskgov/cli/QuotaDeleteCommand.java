package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskgov quota delete ID}: SageMaker DeleteComputeQuota. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a compute quota (DeleteComputeQuota).")
public class QuotaDeleteCommand extends SageMakerDeleteCommand {

    @Parameters(paramLabel = "ID", description = "ComputeQuotaId.")
    String id;

    @Override
    protected int run() {
        return delete("computequota", id, c -> c.deleteComputeQuota(b -> b.computeQuotaId(id)));
    }
}
