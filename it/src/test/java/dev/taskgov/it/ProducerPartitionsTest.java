package dev.taskgov.it;

import dev.taskgov.core.events.ClusterPartitions;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.client.support.ProducerPartitions;
import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TopicSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The partition taskgov's producers give a record (ProducerPartitions), against the real broker: a record naming a
 * cluster lands on that cluster's partition of the topic it is written to, by that topic's own partition count as
 * the producer learns it from the broker; one naming none, or a bad name, or a value that is no cluster's record, is
 * left to the producer's partitioner.
 */
class ProducerPartitionsTest {

    private static final String ARN = "arn:aws:sagemaker:us-west-2:123456789012:cluster/taskgovdemo1";

    private static KafkaProducer<String, String> producer;

    @BeforeAll
    static void producer() {
        producer = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(), new StringSerializer());
    }

    @AfterAll
    static void close() {
        producer.close();
    }

    @Test
    void aRecordNamingAClusterLandsOnItsPartitionByEachTopicsOwnCount() throws Exception {
        WorkloadFinished named = finished(ARN);
        for (int partitions : new int[] {3, 7}) {
            String topic = topic(partitions);
            Integer partition = ProducerPartitions.ofNamed(producer, topic, named);
            assertThat(partition).as("of %d partitions", partitions).isEqualTo(ClusterPartitions.of(ARN, partitions));
            RecordMetadata written = producer.send(new ProducerRecord<>(topic, partition, "w", "v")).get(1, TimeUnit.MINUTES);
            assertThat(written.partition()).isEqualTo(ClusterPartitions.of(ARN, partitions));
        }
    }

    @Test
    void aRecordNamingNoClusterABadNameOrNoClustersRecordGoesByItsKey() {
        String topic = topic(5);
        assertThat(ProducerPartitions.ofNamed(producer, topic, finished(null))).isNull();
        // A name that breaks the ARN rule is refused by the owner where it is kept, not here.
        assertThat(ProducerPartitions.ofNamed(producer, topic, finished("demo"))).isNull();
        assertThat(ProducerPartitions.ofNamed(producer, topic, "not a record of a cluster")).isNull();
    }

    private static WorkloadFinished finished(String arn) {
        return new WorkloadFinished("w", Instant.EPOCH, WorkloadFinished.Outcome.Succeeded, arn);
    }

    private static String topic(int partitions) {
        String topic = "producer-partitions-" + UUID.randomUUID();
        KafkaTopics.create(SharedKafka.adminClientProperties(), List.of(TopicSpec.deleting(topic, partitions)));
        return topic;
    }
}
