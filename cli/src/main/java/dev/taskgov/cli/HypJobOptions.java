package dev.taskgov.cli;

import picocli.CommandLine.Option;

/** How {@code hyp} names one job: {@code --job-name}, and {@code --namespace}, accepted as hyp takes it. */
final class HypJobOptions {

    @Option(names = "--job-name", required = true, description = "The job's name (its workload id).")
    String jobName;

    @Option(names = "--namespace", defaultValue = "${env:TASKGOV_NAMESPACE}",
            description = "The team's namespace (accepted as hyp takes it; the job name identifies the workload).")
    String namespace;
}
