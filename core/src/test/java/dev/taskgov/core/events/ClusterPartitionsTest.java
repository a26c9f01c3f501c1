package dev.taskgov.core.events;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cluster's partition is a fixed, documented function that any producer can compute. */
class ClusterPartitionsTest {

    @Test
    void thePartitionIsFnv1aOfTheArnModuloTheCountAndNeverChanges() {
        // FNV-1a 32 of "a" is 0xe40c292c (the published test vector).
        assertThat(ClusterPartitions.of("a", Integer.MAX_VALUE)).isEqualTo((int) (0xe40c292cL % Integer.MAX_VALUE));
        String arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/demo";
        assertThat(ClusterPartitions.of(arn, 8)).isEqualTo(ClusterPartitions.of(arn, 8)).isBetween(0, 7);
        assertThat(ClusterPartitions.of(arn, 1)).isZero();
    }

    @Test
    void sixteenClustersSpreadOverEightPartitions() {
        Set<Integer> used = new HashSet<>();
        IntStream.range(0, 16).forEach(i -> used.add(ClusterPartitions.of("arn:aws:sagemaker:us-east-1:1:cluster/c" + i, 8)));
        assertThat(used.size()).isGreaterThanOrEqualTo(5);
    }

    @Test
    void aCountBelowOneIsRefusedNamingIt() {
        assertThatThrownBy(() -> ClusterPartitions.of("x", 0)).hasMessageContaining("partitions: must be at least 1");
    }

    @Test
    void aProducerSendsARecordNamingAClusterToItsPartitionAndOneNamingNoneByItsKey() {
        String arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovdemo1";
        assertThat(ClusterPartitions.ofNamed(new WorkloadFinished("w", Instant.EPOCH, WorkloadFinished.Outcome.Succeeded, arn), 8))
                .isEqualTo(ClusterPartitions.of(arn, 8));
        assertThat(ClusterPartitions.ofNamed(new WorkloadFinished("w", Instant.EPOCH, WorkloadFinished.Outcome.Succeeded), 8)).isNull();
        // A name that breaks the ARN rule is sent by key: its owner refuses it where it is kept, not here.
        assertThat(ClusterPartitions.ofNamed(new WorkloadFinished("w", Instant.EPOCH, WorkloadFinished.Outcome.Succeeded, "demo"), 8))
                .isNull();
    }
}
