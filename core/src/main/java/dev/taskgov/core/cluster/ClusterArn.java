package dev.taskgov.core.cluster;

import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The identity of one governed cluster: a HyperPod cluster ARN, by SageMaker's rule
 * ({@code arn:aws[a-z-]*:sagemaker:REGION:ACCOUNT(12 digits):cluster/ID(12 lowercase letters or digits)},
 * at most 256 characters), or {@link #UNNAMED}: the one cluster of a deployment whose records name none
 * (single-cluster deployments and scenario files, which predate clusters).
 */
public final class ClusterArn implements Comparable<ClusterArn> {

    /** SageMaker's {@code ClusterArn} pattern (CreateComputeQuota, CreateClusterSchedulerConfig). */
    public static final Pattern PATTERN =
            Pattern.compile("arn:aws[a-z\\-]*:sagemaker:[a-z0-9\\-]*:[0-9]{12}:cluster/[a-z0-9]{12}");
    /** SageMaker's length limit of a {@code ClusterArn}. */
    public static final int MAX_LENGTH = 256;
    /** How the rule reads in error messages. */
    public static final String RULE = "must be a HyperPod cluster ARN arn:aws:sagemaker:REGION:ACCOUNT:cluster/ID "
            + "(ACCOUNT 12 digits, ID 12 lowercase letters or digits)";

    /** The cluster of records that name none; its {@link #value()} is the empty string and it is written as absent. */
    public static final ClusterArn UNNAMED = new ClusterArn("");

    /**
     * ARNs that passed the rule. A deployment governs a handful of clusters, and a record's cluster is asked for on
     * hot paths (routing every input record, the gauges' pass over every workload under the decider's lock), where
     * matching the pattern each time cost more than the rest of the pass. Bounded, since ARNs come from input: past
     * the bound an ARN is checked each time.
     */
    private static final java.util.concurrent.ConcurrentHashMap<String, ClusterArn> CHECKED = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int CHECKED_BOUND = 1024;

    private final String value;

    private ClusterArn(String value) {
        this.value = value;
    }

    /**
     * A named cluster.
     *
     * @throws IllegalArgumentException naming the rule, when {@code arn} breaks it
     */
    public static ClusterArn of(String arn) {
        ClusterArn known = arn == null ? null : CHECKED.get(arn);
        if (known != null) return known;
        problem(arn).ifPresent(p -> {
            throw new IllegalArgumentException(p);
        });
        ClusterArn checked = new ClusterArn(arn);
        if (CHECKED.size() < CHECKED_BOUND) CHECKED.putIfAbsent(arn, checked);
        return checked;
    }

    /** The named cluster, or {@link #UNNAMED} for null (a record that names no cluster). */
    public static ClusterArn ofNullable(String arn) {
        return arn == null ? UNNAMED : of(arn);
    }

    /** What is wrong with {@code arn} as a cluster ARN (empty when it follows the rule). */
    public static Optional<String> problem(String arn) {
        if (arn == null || arn.isEmpty()) return Optional.of("is required");
        if (arn.length() > MAX_LENGTH) return Optional.of("must be at most " + MAX_LENGTH + " characters, was " + arn.length());
        if (!PATTERN.matcher(arn).matches()) return Optional.of(RULE + ", was '" + abbreviate(arn) + "'");
        return Optional.empty();
    }

    /** True for a string that follows the rule. */
    public static boolean isValid(String arn) {
        return problem(arn).isEmpty();
    }

    /** The ARN; empty for {@link #UNNAMED}. */
    public String value() {
        return value;
    }

    /** The ARN as records write it: null for {@link #UNNAMED} (the field is left out). */
    public String orNull() {
        return isUnnamed() ? null : value;
    }

    public boolean isUnnamed() {
        return value.isEmpty();
    }

    /** The last part of the ARN (the 12-character cluster id); {@code (unnamed)} for {@link #UNNAMED}. */
    public String shortId() {
        return isUnnamed() ? "(unnamed)" : value.substring(value.lastIndexOf('/') + 1);
    }

    @Override
    public int compareTo(ClusterArn o) {
        return value.compareTo(o.value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ClusterArn c && c.value.equals(value);
    }

    @Override
    public int hashCode() {
        return Objects.hashCode(value);
    }

    /** The ARN, or {@code (unnamed)}. */
    @Override
    public String toString() {
        return isUnnamed() ? "(unnamed)" : value;
    }

    private static String abbreviate(String s) {
        return s.length() <= 80 ? s : s.substring(0, 80) + "...";
    }
}
