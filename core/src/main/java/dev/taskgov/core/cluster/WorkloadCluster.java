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
            return new Refused(new Violation("clusterArn", "is required: this deployment governs " + known.size()
                    + " clusters " + known + "; name the one the workload runs in"));
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
}
