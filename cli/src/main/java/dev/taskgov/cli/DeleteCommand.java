package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code taskgov delete hyp-pytorch-job --job-name NAME}, as {@code hyp delete hyp-pytorch-job}. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a job (hyp-pytorch-job), as hyp delete does.",
        subcommands = {DeleteCommand.HypPyTorchJob.class})
public class DeleteCommand {

    /** Ends the job's workload as Cancelled (taskgov finish NAME --outcome Cancelled): its quota and nodes are freed. */
    @Command(name = "hyp-pytorch-job", mixinStandardHelpOptions = true,
            description = "End the job's workload as Cancelled, freeing its quota and nodes (taskgov finish NAME --outcome Cancelled).")
    public static class HypPyTorchJob extends CliCommand {
        @Option(names = "--job-name", required = true, description = "The job's name (its workload id).")
        String jobName;
        @Option(names = "--namespace", defaultValue = "${env:TASKGOV_NAMESPACE}", description = "The team's namespace (accepted as hyp takes it).")
        String namespace;
        @Mixin
        Endpoints endpoints;

        @Override
        protected int run() {
            return HypPyTorchJobCommands.delegate(this, endpoints, "finish", jobName, "--outcome", "Cancelled");
        }
    }
}
