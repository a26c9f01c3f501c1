package dev.taskgov.topology.it;

import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.core.topology.Node;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.topology.capacity.CapacityView;
import dev.taskgov.topology.inventory.InventoryRefresher;
import dev.taskgov.topology.inventory.TopologyPublisher;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.topology.staticfile.StaticInventoryFile;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.taskgov.core.events.DeadLetter;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The static demo inventory published to a real broker, and free capacity kept from the workload topics. */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class StaticTopologyServiceTest {

    static final Duration WAIT = Duration.ofMinutes(3);
    static final String NODE = "p5-b2r1h3";
    static final String RACK = "$.domains[0].children[1].children[0]";

    @Inject
    InventoryRefresher refresher;

    @Inject
    CapacityView view;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void publishesOneRecordPerNodeOfTheDemoFileAndNothingMoreWhenUnchanged() throws Exception {
        Map<String, Node> expected = StaticInventoryFile.load(Path.of("../deploy/local/demo-cluster.json")).stream()
                .collect(Collectors.toMap(Node::name, Function.identity(), (a, b) -> a, TreeMap::new));

        await().atMost(WAIT).untilAsserted(() -> assertThat(published()).isEqualTo(expected));
        List<ConsumerRecord<String, String>> records = TopicView.records(bootstrap, Names.TOPOLOGY);
        assertThat(records).allSatisfy(r -> {
            assertThat(TopicView.header(r, "ce_specversion")).isEqualTo("1.0");
            assertThat(TopicView.header(r, "ce_source")).isEqualTo(TopologyPublisher.EVENT_SOURCE);
        });

        assertThat(refresher.pollNow().published().isEmpty()).isTrue();
        assertThat(TopicView.records(bootstrap, Names.TOPOLOGY)).hasSize(records.size());
    }

    @Test
    void theTreeShowsCapacityAndFreeCapacityPerDomainAndFollowsAdmissionsAndFinishes() {
        await().atMost(WAIT).until(() -> topology().getInt("readyNodes") == 32);
        JsonPath before = topology();
        assertThat(before.getList("domains.value")).containsExactly("nn-1", "nn-2");
        assertThat(before.getInt("capacity.accelerators")).isEqualTo(256);
        assertThat(before.getInt("domains[0].capacity.accelerators")).isEqualTo(128);
        assertThat(before.getString(path(RACK + ".value"))).isEqualTo("nn-b2-r1");
        assertThat(before.getInt(path(RACK + ".capacity.accelerators"))).isEqualTo(32);
        int rackFree = before.getInt(path(RACK + ".free.accelerators"));
        int clusterFreeVcpu = before.getInt("free.vcpu");

        String id = "topology-test-" + UUID.randomUUID();
        send(Names.WORKLOAD_SUBMITTED, id, """
                {"workloadId": "%s", "namespace": "hyperpod-ns-team-a", "queueName": "hyperpod-ns-team-a-localqueue",
                 "submittedAt": "2026-11-30T10:00:00Z",
                 "podSets": [{"name": "worker", "count": 3, "instanceType": "ml.p5.48xlarge",
                              "requests": {"accelerators": 2, "vcpu": 4, "memoryGiB": 32}}]}""".formatted(id));
        send(Names.WORKLOAD_ADMITTED, id, """
                {"workloadId": "%s", "team": "team-a", "admittedAt": "2026-11-30T10:00:01Z", "borrowed": {},
                 "podSets": [{"name": "worker", "instanceType": "ml.p5.48xlarge",
                              "domain": {"level": "topology.k8s.aws/network-node-layer-3", "value": "nn-b2-r1"},
                              "nodes": [{"name": "%s", "count": 3}]}]}""".formatted(id, NODE));

        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree - 6);
        JsonPath admitted = topology();
        assertThat(admitted.getInt("free.vcpu")).isEqualTo(clusterFreeVcpu - 12);
        assertThat(admitted.getInt(path(RACK + ".capacity.accelerators"))).isEqualTo(32);
        // The gauges follow within taskgov.topology.meters-refresh (recomputed at most once per interval).
        await().atMost(WAIT).untilAsserted(() -> assertThat(metrics()).contains(
                "taskgov_topology_domain_free{cluster=\"\",domain=\"nn-b2-r1\",level=\"topology.k8s.aws/network-node-layer-3\",resource=\"accelerators\"} "
                        + (rackFree - 6) + ".0"));

        send(Names.WORKLOAD_FINISHED, id, """
                {"workloadId": "%s", "finishedAt": "2026-11-30T10:05:00Z", "outcome": "Succeeded"}""".formatted(id));

        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree);
        assertThat(topology().getInt("free.vcpu")).isEqualTo(clusterFreeVcpu);
    }

    /**
     * A workload with {@code taskgov.dev/max-retry} that fails is admitted again under the same id
     * (admission-service queues it again, reason RetryAfterFailure) and must hold its nodes again; once it ends for
     * good and the consumer has read past its finish, nothing of it is kept.
     */
    @Test
    void aRetriedWorkloadHoldsAgainAndAFinishedOneIsForgotten() {
        await().atMost(WAIT).until(() -> topology().getInt("readyNodes") == 32);
        int rackFree = topology().getInt(path(RACK + ".free.accelerators"));
        String id = "topology-retry-" + UUID.randomUUID();
        send(Names.WORKLOAD_SUBMITTED, id, """
                {"workloadId": "%s", "namespace": "hyperpod-ns-team-a", "queueName": "hyperpod-ns-team-a-localqueue",
                 "submittedAt": "2026-11-30T10:00:00Z", "annotations": {"taskgov.dev/max-retry": "1"},
                 "podSets": [{"name": "worker", "count": 3, "instanceType": "ml.p5.48xlarge",
                              "requests": {"accelerators": 2, "vcpu": 4, "memoryGiB": 32}}]}""".formatted(id));
        send(Names.WORKLOAD_ADMITTED, id, admission(id));
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree - 6);

        send(Names.WORKLOAD_FINISHED, id, """
                {"workloadId": "%s", "finishedAt": "2026-11-30T10:05:00Z", "outcome": "Failed"}""".formatted(id));
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree);
        assertThat(view.holds().tracks(id)).as("pending again: its requests are kept for the retry").isTrue();

        // The retry, admitted after the failure; 2 pods this time.
        send(Names.WORKLOAD_ADMITTED, id, """
                {"workloadId": "%s", "team": "team-a", "admittedAt": "2026-11-30T10:06:00Z", "borrowed": {},
                 "podSets": [{"name": "worker", "instanceType": "ml.p5.48xlarge",
                              "nodes": [{"name": "%s", "count": 2}]}]}""".formatted(id, NODE));
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree - 4);

        send(Names.WORKLOAD_FINISHED, id, """
                {"workloadId": "%s", "finishedAt": "2026-11-30T10:10:00Z", "outcome": "Succeeded"}""".formatted(id));
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree);
        // Forgotten once the consumer's positions pass the end offsets taken after the finish was read.
        await().atMost(WAIT).until(() -> !view.holds().tracks(id));
        await().atMost(WAIT).untilAsserted(() -> assertThat(metrics())
                .containsPattern("(?m)^taskgov_topology_workloads\\{kept=\"holding\"} [0-9.E]+$")
                .containsPattern("(?m)^taskgov_topology_workloads\\{kept=\"requests-or-marker\"} [0-9.E]+$"));
    }

    /**
     * The decider writes its admissions in Kafka transactions; one that was aborted (the decider died or was fenced
     * before committing) was never decided, and the decider decides that workload again. Capacity must follow
     * committed admissions only, or nodes would look held by pods that never ran.
     */
    @Test
    void anAdmissionFromAnAbortedTransactionHoldsNothing() {
        await().atMost(WAIT).until(() -> topology().getInt("readyNodes") == 32);
        int rackFree = topology().getInt(path(RACK + ".free.accelerators"));
        String aborted = "topology-aborted-" + UUID.randomUUID();
        String committed = "topology-committed-" + UUID.randomUUID();
        for (String id : List.of(aborted, committed)) send(Names.WORKLOAD_SUBMITTED, id, submission(id));

        Properties p = producerProperties();
        p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "topology-test-" + UUID.randomUUID());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(new ProducerRecord<>(Names.WORKLOAD_ADMITTED, aborted, admission(aborted)));
            producer.flush();
            producer.abortTransaction();
        }
        send(Names.WORKLOAD_ADMITTED, committed, admission(committed));

        // The committed admission comes after the aborted one in the partition: once it is applied, the aborted one
        // has been passed over.
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) != rackFree);
        assertThat(topology().getInt(path(RACK + ".free.accelerators"))).isEqualTo(rackFree - 6);

        send(Names.WORKLOAD_FINISHED, committed, """
                {"workloadId": "%s", "finishedAt": "2026-11-30T10:05:00Z", "outcome": "Succeeded"}""".formatted(committed));
        await().atMost(WAIT).until(() -> topology().getInt(path(RACK + ".free.accelerators")) == rackFree);
    }

    private static String submission(String id) {
        return """
                {"workloadId": "%s", "namespace": "hyperpod-ns-team-a", "queueName": "hyperpod-ns-team-a-localqueue",
                 "submittedAt": "2026-11-30T10:00:00Z",
                 "podSets": [{"name": "worker", "count": 3, "instanceType": "ml.p5.48xlarge",
                              "requests": {"accelerators": 2, "vcpu": 4, "memoryGiB": 32}}]}""".formatted(id);
    }

    private static String admission(String id) {
        return """
                {"workloadId": "%s", "team": "team-a", "admittedAt": "2026-11-30T10:00:01Z", "borrowed": {},
                 "podSets": [{"name": "worker", "instanceType": "ml.p5.48xlarge",
                              "domain": {"level": "topology.k8s.aws/network-node-layer-3", "value": "nn-b2-r1"},
                              "nodes": [{"name": "%s", "count": 3}]}]}""".formatted(id, NODE);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a submission that is not JSON                | taskgov.workload.submitted | {"workloadId":     | unreadable | unreadable WorkloadSubmitted: $:
            a submission with trailing garbage           | taskgov.workload.submitted | {"workloadId": "w", "podSets": []}xyz | unreadable | unreadable WorkloadSubmitted: $:
            a submission with a count written as text    | taskgov.workload.submitted | {"workloadId": "w", "podSets": [{"name": "a", "count": "3"}]} | invalid | $.podSets[0].count:
            a submission with an id that breaks the rule | taskgov.workload.submitted | {"workloadId": "../../etc/passwd", "podSets": []} | invalid | $.workloadId: must be at most 253 characters
            an admission without workloadId              | taskgov.workload.admitted  | {"team": "team-a", "podSets": []} | invalid | $.workloadId: is required
            an admission with a fractional pod count     | taskgov.workload.admitted  | {"workloadId": "w", "podSets": [{"name": "a", "nodes": [{"name": "n", "count": 1.5}]}]} | invalid | $.podSets[0].nodes[0].count:
            a finish that is a JSON array                | taskgov.workload.finished  | [1, 2]             | unreadable | unreadable WorkloadFinished: $:
            a finish with an unknown outcome             | taskgov.workload.finished  | {"workloadId": "w", "outcome": "Exploded"} | invalid | $.outcome:
            a preemption with a bad preemptedAt          | taskgov.workload.preempted | {"workloadId": "w", "preemptedAt": "yesterday"} | invalid | $.preemptedAt: must be an ISO-8601 instant
            """)
    void aBadWorkloadRecordGoesToTheDeadLetterTopicWithItsReasonAndIsCounted(
            String scenario, String topic, String value, String reason, String reasonText) {
        String key = "topology-bad-" + UUID.randomUUID();
        String counter = "taskgov_deadletter_records_total{reason=\"" + reason + "\",topic=\"" + topic + "\"}";
        double before = metricValue(counter);
        send(topic, key, value);

        await().atMost(WAIT).untilAsserted(() -> {
            java.util.Optional<ConsumerRecord<String, String>> found = TopicView.records(bootstrap, Names.DEADLETTER).stream()
                    .filter(r -> key.equals(r.key())).findFirst();
            assertThat(found).as("dead letter of %s", key).isPresent();
            ConsumerRecord<String, String> dead = found.get();
            DeadLetter letter = EventCodec.mapper().readValue(dead.value(), DeadLetter.class);
            assertThat(letter.topic()).isEqualTo(topic);
            assertThat(letter.offset()).isNotNegative();
            assertThat(letter.reason()).contains(reasonText);
            assertThat(letter.value()).isEqualTo(value);
            assertThat(TopicView.header(dead, "ce_type")).isEqualTo("dev.taskgov.deadletter");
        });
        await().atMost(WAIT).until(() -> metricValue(counter) == before + 1);
    }

    @Test
    void theDeadLetterCounterStartsAtZeroForEveryInputTopicAndTheConsumersReportTheirLag() {
        String metrics = metrics();
        for (String topic : List.of(Names.WORKLOAD_SUBMITTED, Names.WORKLOAD_ADMITTED,
                Names.WORKLOAD_FINISHED, Names.WORKLOAD_PREEMPTED)) {
            for (String reason : List.of("unreadable", "invalid", "failed")) {
                assertThat(metrics).containsPattern("(?m)^taskgov_deadletter_records_total\\{reason=\"" + reason
                        + "\",topic=\"" + java.util.regex.Pattern.quote(topic) + "\"} [0-9.]+$");
            }
        }
        await().atMost(WAIT).untilAsserted(() -> assertThat(metrics())
                .containsPattern("(?m)^kafka_consumer_fetch_manager_records_lag_max\\{.*client_id=\"topology-service-workload-events\".*} [0-9.E-]+$")
                .containsPattern("(?m)^kafka_consumer_fetch_manager_records_lag\\{.*client_id=\"topology-service-workload-events\".*topic=\"taskgov\\.workload\\.admitted\".*} [0-9.E]+$"));
    }

    private static double metricValue(String series) {
        return metrics().lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim())).findFirst().orElse(0);
    }

    @Test
    void metricsShowCapacityPerDomainAndNodesByReadiness() {
        await().atMost(WAIT).until(() -> topology().getInt("readyNodes") == 32);
        // The gauges follow the inventory within taskgov.topology.meters-refresh.
        await().atMost(WAIT).untilAsserted(() -> assertThat(metrics())
                .contains("taskgov_topology_domain_capacity{cluster=\"\",domain=\"nn-1\",level=\"topology.k8s.aws/network-node-layer-1\",resource=\"accelerators\"} 128.0")
                .contains("taskgov_topology_domain_capacity{cluster=\"\",domain=\"nn-b1-r1\",level=\"topology.k8s.aws/network-node-layer-3\",resource=\"memoryGiB\"} 8192.0")
                .contains("taskgov_topology_nodes{ready=\"true\"} 32.0")
                .contains("taskgov_topology_nodes{ready=\"false\"} 0.0"));
    }

    private static String path(String jsonPath) {
        return jsonPath.substring(2);
    }

    private static JsonPath topology() {
        return TopologyReads.asViewer().get("/topology").then().statusCode(200).extract().jsonPath();
    }

    private static String metrics() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    private Map<String, Node> published() {
        Map<String, Node> out = new TreeMap<>();
        TopicView.compacted(bootstrap, Names.TOPOLOGY).forEach((k, v) -> out.put(k, EventCodec.read(v, NodeRecord.class).toValidNode(java.util.Map.of())));
        return out;
    }

    private static Properties producerProperties() {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        return p;
    }

    private void send(String topic, String key, String value) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProperties())) {
            producer.send(new ProducerRecord<>(topic, key, value)).get();
        } catch (Exception e) {
            throw new IllegalStateException("cannot send to " + topic, e);
        }
    }
}
