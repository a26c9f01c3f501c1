package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadFinished;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code taskgov finish ID}: reports a workload's end (what the job watcher does for real jobs). */
@Command(name = "finish", mixinStandardHelpOptions = true,
        description = "Report that workloads ended (writes taskgov.workload.finished), freeing their quota and nodes.")
public class FinishCommand extends CliCommand {

    @Parameters(arity = "1..*", paramLabel = "ID", description = "Workload ids.")
    java.util.List<String> ids;

    @Option(names = "--outcome", defaultValue = "Succeeded", description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    WorkloadFinished.Outcome outcome;

    @Mixin
    ClusterOption cluster;
    @Mixin
    Endpoints endpoints;

    @Override
    protected int run() {
        ids.forEach(CliException::checkWorkloadId);
        try (KafkaWriter writer = endpoints.kafkaWriter(clock, err())) {
            for (String id : ids) {
                writer.send(KafkaWriter.FINISHED_TOPIC, id, new WorkloadFinished(id, clock.instant(), outcome, cluster.arn()), WorkloadFinished.TYPE);
                out().println("workload/" + id + " finished (" + outcome + ")");
            }
        }
        return 0;
    }
}
