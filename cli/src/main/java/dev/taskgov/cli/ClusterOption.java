package dev.taskgov.cli;

import dev.taskgov.core.cluster.ClusterArn;
import picocli.CommandLine.Option;

/**
 * {@code --cluster ARN} (env {@code TASKGOV_CLUSTER}, else the cluster of {@code taskgov set-cluster-context}): the
 * governed cluster a command works in. Optional while the deployment governs one cluster; with several,
 * admission-service refuses a command that names none.
 */
final class ClusterOption {

    @Option(names = "--cluster", paramLabel = "ARN", defaultValue = "${env:TASKGOV_CLUSTER}",
            description = "The cluster (its HyperPod cluster ARN; env TASKGOV_CLUSTER; else the one set with set-cluster-context);"
                    + " optional while the deployment governs one.")
    String cluster;

    /** The ARN, checked against the rule, or null when none was given. */
    String arn() {
        if (cluster == null || cluster.isBlank()) return ClusterContext.current().map(ClusterContext::cluster).orElse(null);
        ClusterArn.problem(cluster).ifPresent(p -> {
            throw CliException.invalid("--cluster: " + p);
        });
        return cluster;
    }
}
