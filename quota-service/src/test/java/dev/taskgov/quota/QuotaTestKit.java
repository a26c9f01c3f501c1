package dev.taskgov.quota;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.core.events.ClusterDeclared;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.quota.api.Ids;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.capacity.TopologyCatchUp;
import io.quarkus.arc.Arc;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TestCredentials;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.ConfigProvider;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.SageMakerClientBuilder;

import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/** What the quota-service tests share: a real SageMaker client, a node publisher, a quota topic reader. */
public final class QuotaTestKit {

    public static final ObjectMapper JSON = new ObjectMapper();
    private static KafkaProducer<String, String> producer;

    private QuotaTestKit() {
    }

    private static TestCredentials.Key admin;

    /** An admin access key in the service's database (made once per test JVM, which has one database). */
    public static synchronized TestCredentials.Key admin() {
        if (admin == null) {
            admin = TestCredentials.inDatabase("test-admin", "admin");
        }
        return admin;
    }

    /** The AWS SDK's own SageMaker client, pointed at the service under test, signing with an admin key. */
    public static SageMakerClient sageMaker(URL service) {
        return sageMaker(service, admin());
    }

    /** The AWS SDK's own SageMaker client, pointed at the service under test, signing with this key. */
    public static SageMakerClient sageMaker(URL service, TestCredentials.Key key) {
        return sageMakerBuilder(service, key).build();
    }

    /** The builder of {@link #sageMaker(URL, TestCredentials.Key)}'s client, for a test that sets more (its retries). */
    public static SageMakerClientBuilder sageMakerBuilder(URL service, TestCredentials.Key key) {
        return SageMakerClient.builder()
                .endpointOverride(URI.create("http://localhost:" + service.getPort()))
                .region(Region.US_WEST_2)
                .credentialsProvider(StaticCredentialsProvider.create(AwsBasicCredentials.create(key.accessKeyId(), key.secret())))
                .httpClientBuilder(UrlConnectionHttpClient.builder());
    }

    /** A raw SageMaker wire call ({@code POST /}, {@code X-Amz-Target}), signed with an admin key. */
    public static java.net.http.HttpResponse<String> wire(URL service, String target, String body) {
        return wire(service, admin(), target, body);
    }

    /** A raw SageMaker wire call signed with this key (unsigned when null). */
    public static java.net.http.HttpResponse<String> wire(URL service, TestCredentials.Key key, String target, String body) {
        return TestCredentials.send(key, "POST", URI.create("http://localhost:" + service.getPort() + "/"), body,
                "X-Amz-Target", target, "Content-Type", "application/x-amz-json-1.1");
    }

    /** The nodes the tests published, by name: every cluster a test creates has them all. */
    private static final Map<String, ObjectNode> NODES = new LinkedHashMap<>();
    /** The clusters the tests created (declared on the topology topic). */
    private static final List<String> CLUSTERS = new ArrayList<>();

    /**
     * A cluster ARN of its own, so that each test's quota sums are its own: declared on the topology topic as
     * topology-service declares a governed cluster, with every node the tests published (each cluster's capacity
     * is its own nodes'), and known to quota-service before this returns.
     */
    public static synchronized String newClusterArn() {
        String arn = "arn:aws:sagemaker:us-west-2:123456789012:cluster/" + Ids.newId();
        ClusterArn cluster = ClusterArn.of(arn);
        send(Names.TOPOLOGY, ClusterScopedKey.declaration(cluster), EventCodec.write(new ClusterDeclared(arn, null, "static", null)));
        CLUSTERS.add(arn);
        NODES.values().forEach(n -> send(Names.TOPOLOGY, ClusterScopedKey.of(cluster, n.get("name").asText()), n.toString()));
        // Known also means the whole topic as of quota-service's start was read, as a client waits for readiness:
        // before, the API answers ServiceUnavailable where it reads the cluster (TopologyCatchUpTest tests that).
        await().atMost(Duration.ofSeconds(60)).until(() -> capacity().governed().contains(cluster)
                && NODES.keySet().stream().allMatch(name -> capacity().node(cluster, name).isPresent())
                && Arc.container().instance(TopologyCatchUp.class).get().notReady() == null);
        return arn;
    }

    private static String reference;

    /** What quota-service counts as capacity per instance type in a test cluster (each has every published node). */
    public static synchronized Map<String, dev.taskgov.core.resources.Resources> sharedCapacity() {
        if (reference == null) reference = newClusterArn();
        return capacity().capacityByInstanceType(ClusterArn.of(reference));
    }

    /** quota-service's view of the governed clusters (the tests run in its JVM). */
    public static ClusterCapacity capacity() {
        return Arc.container().instance(ClusterCapacity.class).get();
    }

    /** The key of a team's quota on the quota topic: {@code <ClusterArn>#<team>}. */
    public static String quotaKey(String clusterArn, String team) {
        return ClusterScopedKey.of(ClusterArn.of(clusterArn), team);
    }

    /** The key of a cluster's scheduler config on the quota topic: {@code <ClusterArn>#_scheduler-config}. */
    public static String configKey(String clusterArn) {
        return ClusterScopedKey.schedulerConfig(ClusterArn.of(clusterArn));
    }

    /** A unique team name with a readable prefix. */
    public static String team(String prefix) {
        return prefix + "-" + Ids.newId().substring(0, 6);
    }

    /** Publishes ready nodes of an instance type to the topology topic, in every test cluster; returns their names. */
    public static List<String> publishNodes(String instanceType, int count, long accelerators, long vcpu, long memoryGiB) {
        List<String> names = new ArrayList<>();
        String prefix = "node-" + Ids.newId().substring(0, 6);
        for (int i = 0; i < count; i++) {
            String name = prefix + "-" + i;
            publishNode(name, instanceType, accelerators, vcpu, memoryGiB, true);
            names.add(name);
        }
        return names;
    }

    /** Publishes a node in every test cluster (and in those created later), and waits until quota-service has it. */
    public static synchronized void publishNode(String name, String instanceType, long accelerators, long vcpu, long memoryGiB,
                                                boolean ready) {
        publishNode(name, instanceType, accelerators, vcpu, memoryGiB, Map.of(), ready);
    }

    /** {@code count} ready nodes whose GPUs are in MIG mode: no whole accelerators, these partitions per node. */
    public static List<String> publishMigNodes(String instanceType, int count, Map<String, Long> partitions, long vcpu, long memoryGiB) {
        List<String> names = new ArrayList<>();
        String prefix = "mig-" + Ids.newId().substring(0, 6);
        for (int i = 0; i < count; i++) {
            String name = prefix + "-" + i;
            publishNode(name, instanceType, 0, vcpu, memoryGiB, partitions, true);
            names.add(name);
        }
        return names;
    }

    /** {@link #publishNode}, with accelerator partitions in the node's allocatable (none: empty). */
    public static synchronized void publishNode(String name, String instanceType, long accelerators, long vcpu, long memoryGiB,
                                                Map<String, Long> partitions, boolean ready) {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", name);
        node.put("instanceId", "i-" + name);
        node.put("instanceType", instanceType);
        ObjectNode labels = node.putObject("labels");
        labels.put("topology.k8s.aws/network-node-layer-1", "nn-1");
        labels.put("kubernetes.io/hostname", name);
        ObjectNode alloc = node.putObject("allocatable");
        alloc.put("accelerators", accelerators);
        alloc.put("vcpu", vcpu);
        alloc.put("memoryGiB", memoryGiB);
        if (!partitions.isEmpty()) {
            ObjectNode p = alloc.putObject("partitions");
            partitions.forEach(p::put);
        }
        node.put("ready", ready);
        NODES.put(name, node);
        for (String arn : CLUSTERS) send(Names.TOPOLOGY, ClusterScopedKey.of(ClusterArn.of(arn), name), node.toString());
        await().atMost(Duration.ofSeconds(60)).until(() -> CLUSTERS.stream().allMatch(arn -> capacity().node(ClusterArn.of(arn), name)
                .map(n -> n.ready() == ready && n.allocatable().accelerators() == accelerators).orElse(false)));
    }

    /** The node left every test cluster: a tombstone for its key in each. */
    public static synchronized void removeNode(String name) {
        NODES.remove(name);
        for (String arn : CLUSTERS) send(Names.TOPOLOGY, ClusterScopedKey.of(ClusterArn.of(arn), name), null);
        await().atMost(Duration.ofSeconds(60)).until(() -> CLUSTERS.stream().noneMatch(arn -> capacity().node(ClusterArn.of(arn), name).isPresent()));
    }

    /** A node published in one cluster only (no other test cluster gets it). */
    public static void publishNodeIn(String clusterArn, String name, String instanceType, long accelerators) {
        ObjectNode node = JSON.createObjectNode();
        node.put("name", name);
        node.put("instanceType", instanceType);
        node.put("clusterArn", clusterArn);
        node.putObject("allocatable").put("accelerators", accelerators).put("vcpu", 96).put("memoryGiB", 1152);
        send(Names.TOPOLOGY, ClusterScopedKey.of(ClusterArn.of(clusterArn), name), node.toString());
    }

    public static synchronized void send(String topic, String key, String value) {
        if (producer == null) {
            Properties p = new Properties();
            p.putAll(SharedKafka.adminClientProperties());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
            producer = new KafkaProducer<>(p);
        }
        try {
            producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not publish to " + topic, e);
        }
    }

    /** Every record of the quota topic, in offset order per partition (a real consumer, from the start). */
    public static List<ConsumerRecord<String, String>> readQuotaTopic() {
        return readTopic(Names.QUOTA);
    }

    /** Every record of a topic, in offset order per partition (a real consumer, from the start). */
    public static List<ConsumerRecord<String, String>> readTopic(String topic) {
        List<ConsumerRecord<String, String>> out = new ArrayList<>();
        readTopic(topic, out::add);
        return out;
    }

    /**
     * Passes every record of a topic to the sink, in offset order per partition (a real read_committed consumer,
     * from the start), and answers the end offsets it read to (the last stable ones: past any transaction marker).
     */
    public static Map<TopicPartition, Long> readTopic(String topic, java.util.function.Consumer<ConsumerRecord<String, String>> sink) {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(p)) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(i -> new TopicPartition(i.topic(), i.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (partitions.stream().anyMatch(tp -> consumer.position(tp) < end.get(tp))) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("could not read " + topic + " to its end");
                }
                consumer.poll(Duration.ofMillis(200)).forEach(sink);
            }
            return end;
        }
    }

    /**
     * Waits until quota-service's audit consumer has read back the audit record {@code eventId} from the audit topic:
     * the record is on the topic and the consumer group's committed offset on its partition is past it. quota-service
     * writes its own audit records to the table and, through its outbox, to the topic; its consumer stores a record it
     * reads back only if the table lacks it. A test that removes a row before the consumer has read it back would see it
     * stored again.
     */
    public static void awaitAuditRecordReadBack(String eventId) {
        AtomicReference<ConsumerRecord<String, String>> found = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(60)).until(() -> {
            readTopic(Names.AUDIT, r -> {
                if (eventId.equals(r.key())) found.set(r);
            });
            return found.get() != null;
        });
        ConsumerRecord<String, String> record = found.get();
        TopicPartition partition = new TopicPartition(record.topic(), record.partition());
        String auditGroup = ConfigProvider.getConfig().getValue("mp.messaging.incoming.audit.group.id", String.class);
        try (Admin admin = Admin.create(SharedKafka.adminClientProperties())) {
            await().atMost(Duration.ofSeconds(60)).until(() -> {
                OffsetAndMetadata committed = admin.listConsumerGroupOffsets(auditGroup)
                        .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS).get(partition);
                return committed != null && committed.offset() > record.offset();
            });
        }
    }

    /** The latest record per key of the quota topic (what compaction keeps). */
    public static Map<String, ConsumerRecord<String, String>> latestQuotaRecords() {
        Map<String, ConsumerRecord<String, String>> latest = new LinkedHashMap<>();
        for (ConsumerRecord<String, String> r : readQuotaTopic()) {
            latest.put(r.key(), r);
        }
        return latest;
    }

    /** The headers of a record, as strings. */
    public static Map<String, String> headers(ConsumerRecord<String, String> r) {
        Map<String, String> out = new HashMap<>();
        r.headers().forEach(h -> out.put(h.key(), new String(h.value(), StandardCharsets.UTF_8)));
        return out;
    }

    /** The value of one series in a Prometheus text exposition ({@code name{labels}}), 0 when absent. */
    public static double metricValue(String exposition, String series) {
        return exposition.lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim())).findFirst().orElse(0);
    }
}
