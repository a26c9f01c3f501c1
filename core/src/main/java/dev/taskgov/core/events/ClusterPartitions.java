package dev.taskgov.core.events;

import java.nio.charset.StandardCharsets;

/**
 * Which partition of a workload topic holds a cluster's records: one cluster, one partition, on every
 * workload topic (submitted, finished, admitted, preempted, status, preemption requests and the deciders'
 * changelogs), so that the one owner of that partition sees all of the cluster's records in order. The
 * record key stays the workload id (the compacted status topic keeps one record per workload, since a
 * workload never changes cluster).
 *
 * <p>The function is FNV-1a (32 bits) of the cluster ARN's UTF-8 bytes, modulo the partition count, written
 * out so that a producer in any language can compute it; a producer that does not is still served: the
 * owner of the partition a record lands on forwards it to its cluster's partition.
 */
public final class ClusterPartitions {

    private static final int FNV_OFFSET = 0x811c9dc5;
    private static final int FNV_PRIME = 0x01000193;

    private ClusterPartitions() {
    }

    /** The partition (0 .. partitions-1) of {@code clusterArn}'s records on a topic with {@code partitions} partitions. */
    public static int of(String clusterArn, int partitions) {
        if (partitions < 1) throw new IllegalArgumentException("partitions: must be at least 1, was " + partitions);
        int hash = FNV_OFFSET;
        for (byte b : clusterArn.getBytes(StandardCharsets.UTF_8)) {
            hash ^= b & 0xff;
            hash *= FNV_PRIME;
        }
        return Integer.remainderUnsigned(hash, partitions);
    }
}
