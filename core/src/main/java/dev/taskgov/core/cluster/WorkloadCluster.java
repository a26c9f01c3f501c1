package dev.taskgov.core.cluster;

import dev.taskgov.core.model.Violation;

import java.util.Collection;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which governed cluster a workload belongs to. A submission names its cluster in {@code clusterArn};
 * it may leave it out only while the deployment governs exactly one cluster (or none yet: then it
 * belongs to the {@link ClusterArn#UNNAMED} cluster, as before clusters existed). Otherwise it is refused
 * with the reason, naming the field.
 */
public final class WorkloadCluster {

    private WorkloadCluster() {
    }

    /** The outcome: the cluster, or the broken rule. */
    public sealed interface Result {
    }

    /** The workload belongs to {@code cluster}. */
    public record Chosen(ClusterArn cluster) implements Result {
    }

    /** The submission cannot be placed in a cluster; {@code violation} names {@code clusterArn}. */
    public record Refused(Violation violation) implements Result {
    }

    /**
     * Chooses the cluster of a submission.
     *
     * @param clusterArn the submission's {@code clusterArn} (null when left out)
     * @param governed   the clusters the deployment governs now
     */
    public static Result choose(String clusterArn, Collection<ClusterArn> governed) {
        SortedSet<ClusterArn> known = new TreeSet<>(governed);
        if (clusterArn == null) {
            if (known.size() <= 1) return new Chosen(known.isEmpty() ? ClusterArn.UNNAMED : known.first());
            return new Refused(new Violation("clusterArn", required(known) + "name the one the workload runs in"));
        }
        Optional<String> problem = ClusterArn.problem(clusterArn);
        if (problem.isPresent()) return new Refused(new Violation("clusterArn", problem.get()));
        ClusterArn named = ClusterArn.of(clusterArn);
        if (known.contains(named)) return new Chosen(named);
        // A deployment whose records name no cluster governs only the unnamed one, which has no ARN
        // to match: a named submission cannot be placed in it either.
        return new Refused(new Violation("clusterArn", "cluster " + clusterArn + " is not governed by this deployment "
                + "(it governs " + (known.isEmpty() ? "none yet" : known.toString()) + ")"));
    }

    /**
     * Chooses the cluster a read names in its {@code cluster} parameter, by the same rule as a submission's
     * {@code clusterArn}; a refusal names {@code cluster} and says what to read, not where a workload runs.
     *
     * @param cluster  the read's {@code cluster} (null when left out)
     * @param governed the clusters the deployment governs now
     */
    public static Result chooseToRead(String cluster, Collection<ClusterArn> governed) {
        Result chosen = choose(cluster, governed);
        if (!(chosen instanceof Refused refused)) return chosen;
        String rule = cluster == null
                ? required(new TreeSet<>(governed)) + "name the one to read with ?cluster=ARN (admission-service's GET /clusters lists them)"
                : refused.violation().rule();
        return new Refused(new Violation("cluster", rule));
    }

    private static String required(SortedSet<ClusterArn> known) {
        return "is required: this deployment governs " + known.size() + " clusters " + known + "; ";
    }
}
