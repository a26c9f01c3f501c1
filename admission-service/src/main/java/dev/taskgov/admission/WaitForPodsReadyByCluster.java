package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.model.WaitForPodsReady;

/**
 * Gang admission's setting of each cluster (docs/semantics.md, "Gang admission"), a deployment setting
 * ({@code taskgov.admission.wait-for-pods-ready.*}): the cluster's {@link WaitForPodsReady}, or null where it is off.
 * Asked when a cluster's scheduler is built (at a takeover, or when the cluster is first seen).
 */
@FunctionalInterface
public interface WaitForPodsReadyByCluster {

    /** The setting of {@code cluster}; null: gang admission is off there. */
    WaitForPodsReady of(ClusterArn cluster);

    /** Off in every cluster (the default). */
    WaitForPodsReadyByCluster OFF = cluster -> null;
}
