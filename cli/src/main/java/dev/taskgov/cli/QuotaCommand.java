package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov quota ...}: compute quotas through the SageMaker API of quota-service. */
@Command(name = "quota", mixinStandardHelpOptions = true,
        description = "Compute quotas (SageMaker CreateComputeQuota and friends, served by quota-service).",
        subcommands = {QuotaCreateCommand.class, QuotaDescribeCommand.class, QuotaUpdateCommand.class,
                QuotaListCommand.class, QuotaDeleteCommand.class})
public class QuotaCommand {
}
