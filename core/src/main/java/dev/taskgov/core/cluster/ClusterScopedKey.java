package dev.taskgov.core.cluster;

import java.util.Optional;

/**
 * The key of a record on a compacted cluster topic ({@code taskgov.quota}, {@code taskgov.topology}):
 * {@code <ClusterArn>#<name>} for a record of a named cluster, the bare {@code <name>} for the
 * {@link ClusterArn#UNNAMED} cluster (what every key was before clusters; single-cluster deployments
 * and scenario harnesses still write them), and the bare {@code <ClusterArn>} for the declaration of a
 * cluster on {@code taskgov.topology} ({@link #isDeclaration()}). The separator {@code #} appears in
 * neither an ARN nor a team, node or config name, so a key reads back unambiguously; the key, not the
 * value, says which cluster a record belongs to, because a tombstone has only its key.
 *
 * @param cluster the cluster the record belongs to
 * @param name    the team, node name or {@link #SCHEDULER_CONFIG}; null for a cluster declaration
 */
public record ClusterScopedKey(ClusterArn cluster, String name) {

    /** Between the cluster ARN and the name. */
    public static final char SEPARATOR = '#';
    /** The name of the scheduler config record of a cluster on {@code taskgov.quota}. */
    public static final String SCHEDULER_CONFIG = "_scheduler-config";

    /** The key of {@code name} in {@code cluster}. */
    public static String of(ClusterArn cluster, String name) {
        return cluster.isUnnamed() ? name : cluster.value() + SEPARATOR + name;
    }

    /** The key of a cluster's scheduler config on {@code taskgov.quota}. */
    public static String schedulerConfig(ClusterArn cluster) {
        return of(cluster, SCHEDULER_CONFIG);
    }

    /** The key of a cluster's declaration on {@code taskgov.topology}. */
    public static String declaration(ClusterArn cluster) {
        if (cluster.isUnnamed()) throw new IllegalArgumentException("the unnamed cluster is not declared");
        return cluster.value();
    }

    /** True when this key declares its cluster (no name). */
    public boolean isDeclaration() {
        return name == null;
    }

    /** True when this key names the cluster's scheduler config. */
    public boolean isSchedulerConfig() {
        return SCHEDULER_CONFIG.equals(name);
    }

    /**
     * Reads a key.
     *
     * @throws IllegalArgumentException naming the rule, when the key is blank, its cluster part is not a
     *                                  cluster ARN, or its name part is empty
     */
    public static ClusterScopedKey parse(String key) {
        problem(key).ifPresent(p -> {
            throw new IllegalArgumentException("key: " + p);
        });
        int at = key.indexOf(SEPARATOR);
        if (at < 0) {
            return ClusterArn.isValid(key) ? new ClusterScopedKey(ClusterArn.of(key), null)
                    : new ClusterScopedKey(ClusterArn.UNNAMED, key);
        }
        return new ClusterScopedKey(ClusterArn.of(key.substring(0, at)), key.substring(at + 1));
    }

    /** What is wrong with a key (empty when {@link #parse} reads it). */
    public static Optional<String> problem(String key) {
        if (key == null || key.isBlank()) return Optional.of("is required (<ClusterArn>#<name>, or <name> for a deployment "
                + "whose records name no cluster)");
        int at = key.indexOf(SEPARATOR);
        if (at < 0) return Optional.empty();
        Optional<String> arn = ClusterArn.problem(key.substring(0, at));
        if (arn.isPresent()) return Optional.of("the part before '#' " + arn.get());
        if (at == key.length() - 1) return Optional.of("the part after '#' (the name) is empty");
        if (key.indexOf(SEPARATOR, at + 1) >= 0) return Optional.of("has more than one '#'");
        return Optional.empty();
    }

    @Override
    public String toString() {
        return name == null ? cluster.value() : of(cluster, name);
    }
}
