package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code taskgov quota delete ID}: SageMaker DeleteComputeQuota. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a compute quota (DeleteComputeQuota).")
public class QuotaDeleteCommand extends ServiceCommand {

    @Parameters(paramLabel = "ID", description = "ComputeQuotaId.")
    String id;

    @Override
    protected int run() {
        SageMakerClients.call(endpoints, c -> c.deleteComputeQuota(b -> b.computeQuotaId(id)));
        out().println("computequota/" + id + " deleted");
        return 0;
    }
}
