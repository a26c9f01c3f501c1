package dev.taskgov.quota;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.quota.api.Ids;
import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TopicSpec;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * A topology topic of its own, filled before quota-service starts, as a platform's is when the service restarts: one
 * declared cluster with {@link #NODES} ready {@link #TYPE} nodes, written by a transactional producer in several
 * transactions, and last an aborted transaction in every partition (a node that must never count). So each partition
 * ends with markers after its last record: its end offset lies beyond the offset after the last record a reader is
 * given. The topic and the cluster are new for every run (the broker and the database may outlive one); the service
 * is pointed at them by the config this returns ({@code catch-up-test.cluster-arn} is the test's own).
 */
public class PrefilledTopologyTopic implements QuarkusTestResourceLifecycleManager {

    static final int NODES = 3000;
    static final int PARTITIONS = 2;
    static final String TYPE = "ml.p5.48xlarge";
    static final int ACCELERATORS_PER_NODE = 8;
    static final String CLUSTER_PROPERTY = "catch-up-test.cluster-arn";
    private static final int RECORDS_PER_TRANSACTION = 500;

    @Override
    public Map<String, String> start() {
        String topic = "taskgov.topology.it-catch-up-" + Ids.newId();
        String arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/" + Ids.newId();
        ClusterArn cluster = ClusterArn.of(arn);
        KafkaTopics.create(SharedKafka.adminClientProperties(), List.of(TopicSpec.compacted(topic, PARTITIONS)));
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "it-catch-up-" + Ids.newId());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(topic, ClusterScopedKey.declaration(cluster),
                    EventCodec.write(new ClusterDeclared(arn, null, "static", null))));
            for (int i = 0; i < NODES; i++) {
                if (i > 0 && i % RECORDS_PER_TRANSACTION == 0) {
                    producer.commitTransaction();
                    producer.beginTransaction();
                }
                String name = "catch-up-node-" + i;
                producer.send(new ProducerRecord<>(topic, ClusterScopedKey.of(cluster, name), node(name, arn)));
            }
            producer.commitTransaction();
            producer.beginTransaction();
            for (int partition = 0; partition < PARTITIONS; partition++) {
                String name = "aborted-node-" + partition;
                producer.send(new ProducerRecord<>(topic, partition, ClusterScopedKey.of(cluster, name), node(name, arn)));
            }
            producer.flush();
            producer.abortTransaction();
        }
        return Map.of("taskgov.topics.topology", topic, CLUSTER_PROPERTY, arn);
    }

    private static String node(String name, String arn) {
        ObjectNode node = QuotaTestKit.JSON.createObjectNode();
        node.put("name", name);
        node.put("instanceType", TYPE);
        node.put("clusterArn", arn);
        node.putObject("allocatable").put("accelerators", ACCELERATORS_PER_NODE).put("vcpu", 192).put("memoryGiB", 2048);
        node.put("ready", true);
        return node.toString();
    }

    @Override
    public void stop() {
        // The topic stays on the shared broker with the JVM; its name is this run's alone.
    }
}
