package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code taskgov queue TEAM}: the team's pending workloads in admission order, with why each waits. */
@Command(name = "queue", mixinStandardHelpOptions = true,
        description = "A team's pending queue: positions (1 = head), priority, and why each workload waits.")
public class QueueCommand extends CliCommand {

    @Parameters(paramLabel = "TEAM", description = "Team name (the namespace without hyperpod-ns-).")
    String team;

    @Mixin
    ClusterOption cluster;
    @Mixin
    Endpoints endpoints;
    @Mixin
    OutputOption output;
    @Mixin
    WatchOption watch;

    @Override
    protected int run() {
        return watch.run(this, this::once);
    }

    private int once() {
        String t = team.startsWith("hyperpod-ns-") ? team.substring("hyperpod-ns-".length()) : team;
        JsonNode q = endpoints.admission().pending(t, cluster.arn());
        if (output.structured()) {
            out().println(output.render(q));
            return 0;
        }
        JsonNode entries = q.path("workloads");
        out().println("Team " + t + ": " + entries.size() + " pending");
        if (entries.isEmpty()) return 0;
        Table table = new Table("POSITION", "NAME", "PRIORITY", "AGE", "REASON", "MESSAGE");
        for (JsonNode e : entries) {
            table.row(e.path("position").asInt(), Views.text(e, "workloadId"), Views.text(e, "priority"),
                    Views.age(Views.text(e, "submittedAt"), clock), Views.text(e, "reason"), Views.text(e, "message"));
        }
        table.print(out());
        return 0;
    }
}
