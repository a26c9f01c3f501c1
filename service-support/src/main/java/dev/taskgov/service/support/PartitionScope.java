package dev.taskgov.service.support;

import dev.taskgov.client.support.CompactedTopicReader.PartitionFilter;
import dev.taskgov.core.events.ClusterPartitions;

/**
 * The share of the work one decider task owns: partition {@code partition} of input topics with
 * {@code partitions} partitions, that is the clusters whose {@link ClusterPartitions} partition it is.
 */
public record PartitionScope(int partition, int partitions) {

    /** Everything: one partition (a processor outside the partitioned loop, e.g. a read replica). */
    public static final PartitionScope WHOLE = new PartitionScope(0, 1);

    /** Whether this scope decides for {@code clusterArn}. */
    public boolean owns(String clusterArn) {
        return ClusterPartitions.of(clusterArn, partitions) == partition;
    }

    /** The partition of {@code clusterArn} in this scope's numbering. */
    public int home(String clusterArn) {
        return ClusterPartitions.of(clusterArn, partitions);
    }

    /**
     * The partition of this scope when a topic is split like the scope's inputs; every partition otherwise (the
     * reader then keeps the records of the scope's clusters itself).
     */
    public PartitionFilter filter() {
        return (partition, partitions) -> partitions != this.partitions || partition == this.partition;
    }
}
