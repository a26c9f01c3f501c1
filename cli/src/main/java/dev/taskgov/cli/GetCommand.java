package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov get <resource>}, as {@code kubectl get}. */
@Command(name = "get", mixinStandardHelpOptions = true, description = "List resources (workloads, clusters, teams, topology).",
        subcommands = {GetWorkloadsCommand.class, GetClustersCommand.class, GetTeamsCommand.class, GetTopologyCommand.class})
public class GetCommand {
}
