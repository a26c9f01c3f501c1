package dev.taskgov.cli;

import io.quarkus.picocli.runtime.annotations.TopCommand;
import picocli.CommandLine.Command;

/** The {@code taskgov} command; each subcommand is its own class. */
@TopCommand
@Command(name = "taskgov", mixinStandardHelpOptions = true, version = "taskgov 0.1.0",
        description = "Task governance for shared accelerator clusters.",
        subcommands = {CreateCommand.class, ListCommand.class, DeleteCommand.class, SubmitCommand.class, DryRunCommand.class,
                GetCommand.class, DescribeCommand.class, QueueCommand.class, FinishCommand.class, PodsReadyCommand.class, QuotaCommand.class,
                SchedulerConfigCommand.class, SimulateCommand.class, WhatIfCommand.class, DemoCommand.class, BenchCommand.class,
                CredentialsCommand.class, AuditCommand.class, SetClusterContextCommand.class, GetClusterContextCommand.class,
                CompletionCommand.class, ListAcceleratorPartitionTypeCommand.class})
public class TaskgovCommand {
}
