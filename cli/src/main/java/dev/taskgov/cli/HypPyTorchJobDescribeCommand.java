package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code taskgov describe hyp-pytorch-job --job-name NAME}, as {@code hyp describe hyp-pytorch-job}. */
@Command(name = "hyp-pytorch-job", mixinStandardHelpOptions = true,
        description = "The job's workload: state, reasons, placement and history (taskgov describe workload NAME).")
public class HypPyTorchJobDescribeCommand extends AnswerCommand {
    @Mixin
    HypJobOptions job;

    @Override
    protected int run() {
        return HypPyTorchJobCommands.delegate(this, endpoints, "describe", "workload", job.jobName, "-o", output.format.name());
    }
}
