package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov scheduler-config ...}: the cluster policy (priority classes, fair share) through the SageMaker API. */
@Command(name = "scheduler-config", aliases = "policy", mixinStandardHelpOptions = true,
        description = "The cluster scheduler config: priority classes and fair share (CreateClusterSchedulerConfig and friends).",
        subcommands = {SchedulerConfigCreateCommand.class, SchedulerConfigDescribeCommand.class, SchedulerConfigUpdateCommand.class,
                SchedulerConfigListCommand.class, SchedulerConfigDeleteCommand.class})
public class SchedulerConfigCommand {
}
