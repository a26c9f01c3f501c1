package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code taskgov list hyp-pytorch-job}, as {@code hyp list hyp-pytorch-job}. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "List jobs (hyp-pytorch-job), as hyp list does.",
        subcommands = {ListCommand.HypPyTorchJobs.class})
public class ListCommand {

    /** The team's workloads, as {@code taskgov get workloads --team TEAM}. */
    @Command(name = "hyp-pytorch-job", mixinStandardHelpOptions = true,
            description = "The namespace's jobs and their state (taskgov get workloads --team <team>).")
    public static class HypPyTorchJobs extends AnswerCommand {
        @Option(names = "--namespace", defaultValue = "${env:TASKGOV_NAMESPACE}", description = "The team's namespace (env TASKGOV_NAMESPACE).")
        String namespace;

        @Override
        protected int run() {
            return HypPyTorchJobCommands.delegate(this, endpoints, "get", "workloads", "--team", HypPyTorchJobCommands.team(namespace),
                    "-o", output.format.name());
        }
    }
}
