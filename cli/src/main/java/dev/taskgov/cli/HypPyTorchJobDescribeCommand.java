package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code taskgov describe hyp-pytorch-job --job-name NAME}, as {@code hyp describe hyp-pytorch-job}. */
@Command(name = "hyp-pytorch-job", mixinStandardHelpOptions = true,
        description = "The job's workload: state, reasons, placement and history (taskgov describe workload NAME).")
public class HypPyTorchJobDescribeCommand extends CliCommand {
    @Option(names = "--job-name", required = true, description = "The job's name (its workload id).")
    String jobName;
    @Option(names = "--namespace", defaultValue = "${env:TASKGOV_NAMESPACE}", description = "The team's namespace (accepted as hyp takes it; the job name identifies the workload).")
    String namespace;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;

    @Override
    protected int run() {
        return HypPyTorchJobCommands.delegate(this, endpoints, "describe", "workload", jobName, "-o", output.format.name());
    }
}
