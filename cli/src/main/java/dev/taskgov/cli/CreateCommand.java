package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov create <kind>}, as the HyperPod CLI's {@code hyp create}. */
@Command(name = "create", mixinStandardHelpOptions = true, description = "Create a job (hyp-pytorch-job), as hyp create does.",
        subcommands = {HypPyTorchJobCreateCommand.class})
public class CreateCommand {
}
