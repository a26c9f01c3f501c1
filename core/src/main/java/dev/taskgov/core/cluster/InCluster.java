package dev.taskgov.core.cluster;

/** A record that names its cluster in a {@code clusterArn} field (null: the deployment's unnamed cluster). */
public interface InCluster {

    /** The {@code clusterArn} field as written; null when the record names no cluster. */
    String clusterArn();

    /**
     * The cluster this record belongs to.
     *
     * @throws IllegalArgumentException when {@code clusterArn} breaks the {@link ClusterArn} rule
     */
    default ClusterArn cluster() {
        return ClusterArn.ofNullable(clusterArn());
    }
}
