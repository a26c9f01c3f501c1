package dev.taskgov.client.support;

import dev.taskgov.core.cluster.InCluster;
import dev.taskgov.core.events.ClusterPartitions;
import org.apache.kafka.clients.producer.Producer;

/**
 * The partition a taskgov producer (the CLI, job-watcher, admission-service's HTTP submissions) gives a record it
 * writes to a workload topic, so that each of them applies {@link ClusterPartitions#ofNamed} the same way, with the
 * topic's partition count as the producer's own metadata has it.
 */
public final class ProducerPartitions {

    private ProducerPartitions() {
    }

    /**
     * Where {@code producer} sends {@code event} on {@code topic}: the partition of the cluster it names
     * ({@link ClusterPartitions#ofNamed}), or null (the producer's partitioner, by key) when it is not a record of a
     * cluster ({@link InCluster}), names none, or names one that breaks the ARN rule. Only a record of a cluster
     * asks the producer for the topic's partitions (which may wait for its metadata, up to its {@code max.block.ms}).
     */
    public static Integer ofNamed(Producer<?, ?> producer, String topic, Object event) {
        return event instanceof InCluster named ? ClusterPartitions.ofNamed(named, producer.partitionsFor(topic).size()) : null;
    }
}
