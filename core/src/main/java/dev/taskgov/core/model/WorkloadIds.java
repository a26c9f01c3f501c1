package dev.taskgov.core.model;

import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The one rule for workload ids, wherever an id enters (Kafka submissions and finishes, HTTP paths
 * and bodies, the CLI, the Kubernetes job watcher): a Kubernetes object name (DNS subdomain), so an
 * id is safe in URL paths, metric labels, file names and Kubernetes annotations as it is.
 */
public final class WorkloadIds {

    /** At most this many characters (a Kubernetes name). */
    public static final int MAX_LENGTH = 253;

    /** Lowercase letters, digits, {@code -} and {@code .}, starting and ending with a letter or digit. */
    public static final Pattern PATTERN = Pattern.compile("[a-z0-9]([a-z0-9.-]*[a-z0-9])?");

    /** The rule in words, for error messages and documentation. */
    public static final String RULE = "must be at most " + MAX_LENGTH + " characters of lowercase letters, digits, '-' and '.', "
            + "starting and ending with a letter or digit (a Kubernetes name), e.g. team-a-train-001";

    private WorkloadIds() {
    }

    /** What is wrong with an id (null and blank included), or empty when it follows the rule. */
    public static Optional<String> problem(String id) {
        if (id == null || id.isBlank()) return Optional.of("is required");
        if (id.length() > MAX_LENGTH) return Optional.of(RULE + "; was " + id.length() + " characters");
        if (!PATTERN.matcher(id).matches()) return Optional.of(RULE + "; was '" + id + "'");
        return Optional.empty();
    }

    /** The violation of the id in {@code field}, or empty when it follows the rule. */
    public static Optional<Violation> check(String field, String id) {
        return problem(id).map(rule -> new Violation(field, rule));
    }

    /** True when the id follows the rule. */
    public static boolean isValid(String id) {
        return problem(id).isEmpty();
    }
}
