package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import picocli.CommandLine.Option;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code --cluster ARN} (env {@code TASKGOV_CLUSTER}, else the cluster of {@code taskgov set-cluster-context}): the
 * governed cluster a command works in. Optional while the deployment governs one cluster; with several, a command
 * that changes something must name one, and a read that names none covers them all ({@link #toRead}).
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

    /**
     * The ARN, or a cluster's id (the last part of its ARN, {@code taskgovdemo1}) for a command that resolves ids
     * against the clusters it knows of; null when none was given.
     */
    String arnOrId() {
        if (cluster != null && CLUSTER_ID.matcher(cluster).matches()) return cluster;
        return arn();
    }

    /** A cluster's id: the last part of its ARN (ClusterArn's ID rule). */
    static final Pattern CLUSTER_ID = Pattern.compile("[a-z0-9]{12}");

    /**
     * The clusters a read covers: the one named (this option, {@code TASKGOV_CLUSTER}, the context), else every cluster
     * the deployment governs ({@code GET /clusters}); a list of one null when it governs at most one (the only one).
     */
    List<String> toRead(AdmissionClient admission) {
        String named = arn();
        if (named != null) return List.of(named);
        List<String> all = new ArrayList<>();
        for (JsonNode c : admission.clusters().path("clusters")) {
            if (c.hasNonNull("clusterArn")) all.add(c.get("clusterArn").asText());
        }
        return all.size() <= 1 ? Collections.singletonList(null) : all;
    }

    /** A cluster as a table shows it: its short id (the last part of its ARN, whatever a service answered). */
    static String shortName(String arn) {
        return arn == null || arn.isEmpty() ? "(unnamed)" : arn.substring(arn.lastIndexOf('/') + 1);
    }
}
