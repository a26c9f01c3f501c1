package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadFinished;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code taskgov finish ID}: reports a workload's end (what the job watcher does for real jobs), as the profile the
 * CLI was given ({@link Finishes}): a team's profile finishes its own team's workloads only.
 */
@Command(name = "finish", mixinStandardHelpOptions = true,
        description = {"Report that workloads ended, freeing their quota and nodes: with the admin profile (or --kafka-config) writes"
                + " taskgov.workload.finished with that Kafka login; with another profile asks admission-service with the profile's"
                + " key, which finishes only its own team's workloads."})
public class FinishCommand extends ServiceCommand {

    @Parameters(arity = "1..*", paramLabel = "ID", description = "Workload ids.")
    java.util.List<String> ids;

    @Option(names = "--outcome", defaultValue = "Succeeded", description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    WorkloadFinished.Outcome outcome;

    @Mixin
    ClusterOption cluster;

    @Override
    protected int run() {
        ids.forEach(CliException::checkWorkloadId);
        try (Finishes finishes = Finishes.open(endpoints, clock, err())) {
            for (String id : ids) {
                finishes.finish(id, outcome, cluster.arn());
                out().println("workload/" + id + " finished (" + outcome + ")");
            }
        }
        return 0;
    }
}
