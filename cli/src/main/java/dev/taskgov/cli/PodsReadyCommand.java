package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code taskgov pods-ready ID}: reports that every pod of an admitted workload is ready (gang admission,
 * docs/semantics.md "Gang admission"; what the job watcher does for real jobs), as the profile the CLI was given,
 * like {@code finish} ({@link Finishes}): a team's profile reports its own team's workloads only.
 */
@Command(name = "pods-ready", mixinStandardHelpOptions = true,
        description = {"Report that every pod of admitted workloads is ready (gang admission: their readiness timeout no longer"
                + " applies): with the admin profile (or --kafka-config) writes taskgov.workload.pods-ready with that Kafka login;"
                + " with another profile asks admission-service with the profile's key, which accepts only its own team's running"
                + " workloads."})
public class PodsReadyCommand extends ServiceCommand {

    @Mixin
    WorkloadIds workloads;

    @Mixin
    ClusterOption cluster;

    @Override
    protected int run() {
        var ids = workloads.checked();
        try (Finishes reports = Finishes.open(endpoints, clock, err())) {
            for (String id : ids) {
                reports.podsReady(id, cluster.arn());
                out().println("workload/" + id + " pods ready");
            }
        }
        return 0;
    }
}
