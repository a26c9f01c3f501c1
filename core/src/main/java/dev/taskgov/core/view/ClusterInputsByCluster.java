package dev.taskgov.core.view;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;

import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The cluster records a decider has read, one {@link ClusterInputs} per cluster, and which clusters the
 * deployment governs: those declared on {@code taskgov.topology} and those with nodes. Records are routed
 * by their key ({@link ClusterScopedKey}), so one cluster's quota, policy or node never reaches another's
 * inputs. admission-service and preemption-service each keep one. Not thread-safe: the decider's loop owns it.
 */
public final class ClusterInputsByCluster {

    private final Map<ClusterArn, ClusterInputs> byCluster = new TreeMap<>();
    private final SortedSet<ClusterArn> declared = new TreeSet<>();

    /** The inputs of a cluster (created empty on first use: its records may come in any order). */
    public ClusterInputs of(ClusterArn cluster) {
        return byCluster.computeIfAbsent(cluster, c -> new ClusterInputs());
    }

    /** The inputs of a cluster seen so far, if any record named it. */
    public Optional<ClusterInputs> find(ClusterArn cluster) {
        return Optional.ofNullable(byCluster.get(cluster));
    }

    /** Every cluster any record named, with its inputs. */
    public Map<ClusterArn, ClusterInputs> all() {
        return Collections.unmodifiableMap(byCluster);
    }

    /** A cluster's declaration (topology-service governs it); returns whether it was new. */
    public boolean declare(ClusterArn cluster) {
        of(cluster);
        return declared.add(cluster);
    }

    /** A declaration's tombstone: the cluster is governed again only while it has nodes. */
    public boolean undeclare(ClusterArn cluster) {
        return declared.remove(cluster);
    }

    /** The clusters the deployment governs: declared ones, and any with a node. */
    public SortedSet<ClusterArn> governed() {
        SortedSet<ClusterArn> out = new TreeSet<>(declared);
        byCluster.forEach((c, in) -> {
            // Asked for every record a decider routes (admission: twice per submission), so no node is built here.
            if (in.hasNodes()) out.add(c);
        });
        return out;
    }

    /** Forgets everything (before a rebuild). */
    public void clear() {
        byCluster.clear();
        declared.clear();
    }
}
