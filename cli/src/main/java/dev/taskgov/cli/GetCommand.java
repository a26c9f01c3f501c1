package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov get <resource>}, as {@code kubectl get}. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "List resources (workloads, clusters).",
        subcommands = {GetWorkloadsCommand.class, GetClustersCommand.class})
public class GetCommand {
}
