package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code taskgov delete hyp-pytorch-job --job-name NAME}, as {@code hyp delete hyp-pytorch-job}. */
@Command(name = "delete", mixinStandardHelpOptions = true, description = "Delete a job (hyp-pytorch-job), as hyp delete does.",
        subcommands = {DeleteCommand.HypPyTorchJob.class})
public class DeleteCommand {

    /** Ends the job's workload as Cancelled (taskgov finish NAME --outcome Cancelled): its quota and nodes are freed. */
    @Command(name = "hyp-pytorch-job", mixinStandardHelpOptions = true,
            description = "End the job's workload as Cancelled, freeing its quota and nodes (taskgov finish NAME --outcome Cancelled).")
    public static class HypPyTorchJob extends ServiceCommand {
        @Mixin
        HypJobOptions job;

        @Override
        protected int run() {
            return HypPyTorchJobCommands.delegate(this, endpoints, "finish", job.jobName, "--outcome", "Cancelled");
        }
    }
}
