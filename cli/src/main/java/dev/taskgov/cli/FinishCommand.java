package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.WorkloadFinished;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * {@code taskgov finish ID}: reports a workload's end (what the job watcher does for real jobs), as the profile the
 * CLI was given ({@link Finishes}): a team's profile finishes its own team's workloads only.
 */
@Command(name = "finish", mixinStandardHelpOptions = true,
        description = {"Report that workloads ended, freeing their quota and nodes: the admin profile writes taskgov.workload.finished"
                + " for the ids admission-service knows (--kafka-config: as told); another profile asks admission-service with"
                + " the profile's key, which finishes only its own team's workloads."})
public class FinishCommand extends ServiceCommand {

    @Mixin
    WorkloadIds workloads;

    @Option(names = "--outcome", defaultValue = "Succeeded", description = "${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    WorkloadFinished.Outcome outcome;

    @Mixin
    ClusterOption cluster;

    @Override
    protected int run() {
        List<String> ids = workloads.checked();
        // Every id is looked up before anything is written: an unknown one among several finishes none.
        boolean checkFirst = endpoints.finishesThroughKafka() && !endpoints.kafkaLoginGiven();
        List<String> toFinish = new ArrayList<>();
        for (String id : ids) if (!checkFirst || stillRunsOrWaits(id)) toFinish.add(id);
        if (toFinish.isEmpty()) return 0;
        try (Finishes finishes = Finishes.open(endpoints, clock, err())) {
            for (String id : toFinish) {
                finishes.finish(id, outcome, cluster.arn());
                out().println("workload/" + id + " finished (" + outcome + ")");
            }
        }
        return 0;
    }

    /**
     * Before a finish is written to the topic with the administrator's profile, whether the workload is still pending
     * or admitted, as admission-service describes it (a finish through admission-service is checked there, 404 for an
     * unknown id; one written to the topic would otherwise be taken for done while the decider only logs "no such
     * workload"; an explicitly named Kafka login, {@code --kafka-config} as a job watcher or a script uses, writes as
     * told): an unknown id is an error naming it; one that has already ended is said so, and nothing is written. When
     * admission-service cannot be asked (down, another key), the finish is written anyway with a note: the decider
     * applies it when it reads it.
     */
    private boolean stillRunsOrWaits(String id) {
        Optional<JsonNode> found;
        try {
            found = endpoints.admission().findWorkload(id);
        } catch (CliException e) {
            err().println("note: could not ask admission-service whether workload " + id + " exists (" + e.getMessage().lines().findFirst()
                    .orElse("") + "); writing its finish anyway");
            return true;
        }
        if (found.isEmpty()) {
            throw CliException.failed("no workload with id '" + id + "': admission-service knows none, so nothing was finished"
                    + " (taskgov get workloads lists them)");
        }
        JsonNode w = found.get();
        String state = w.path("state").asText("");
        if (state.equals("Finished") || state.equals("Rejected")) {
            String reason = w.path("reason").asText("");
            out().println("workload/" + id + " had already ended (" + state + (reason.isEmpty() ? "" : ", " + reason) + "); nothing changes");
            return false;
        }
        return true;
    }
}
