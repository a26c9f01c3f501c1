package dev.taskgov.core.events;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.InCluster;

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

    /**
     * Where a producer sends {@code record} on a workload topic with {@code partitions} partitions: its named
     * cluster's partition, or null (the producer's partitioner, by key) when it names no cluster or one that breaks
     * the ARN rule. Sent straight there, a record needs no forwarding transaction by the owner where it would land.
     */
    public static Integer ofNamed(InCluster record, int partitions) {
        String arn = record.clusterArn();
        return arn == null || !ClusterArn.isValid(arn) ? null : of(arn, partitions);
    }
}
