package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov describe <resource> <id>}, as {@code kubectl describe}. */
@Command(name = "describe", mixinStandardHelpOptions = true, description = "Show one resource in detail (workload, hyp-pytorch-job).",
        subcommands = {DescribeWorkloadCommand.class, HypPyTorchJobDescribeCommand.class})
public class DescribeCommand {
}
