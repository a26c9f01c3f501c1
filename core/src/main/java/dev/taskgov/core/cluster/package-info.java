/**
 * Clusters as first-class identities: the {@link dev.taskgov.core.cluster.ClusterArn} of a governed
 * cluster, how records on the compacted cluster topics are keyed per cluster
 * ({@link dev.taskgov.core.cluster.ClusterScopedKey}), and which cluster a workload belongs to
 * ({@link dev.taskgov.core.cluster.WorkloadCluster}).
 */
package dev.taskgov.core.cluster;
