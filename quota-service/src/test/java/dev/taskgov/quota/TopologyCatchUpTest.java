package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.metrics.QuotaMetrics;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.reactive.messaging.ChannelRegistry;
import jakarta.inject.Inject;
import org.apache.kafka.common.TopicPartition;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;

import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static dev.taskgov.quota.PrefilledTopologyTopic.ACCELERATORS_PER_NODE;
import static dev.taskgov.quota.PrefilledTopologyTopic.NODES;
import static dev.taskgov.quota.PrefilledTopologyTopic.TYPE;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * quota-service started on a topology topic that already holds a whole cluster ({@link PrefilledTopologyTopic}: 3000
 * nodes, every partition ending with transaction markers): until it has handled every record the topic had at the
 * start, readiness is DOWN with the partitions behind, and an answer that reads capacity is a retriable 503
 * {@code ServiceUnavailable}, never a quota-sum refusal against the nodes read so far. The channel starts paused
 * (SmallRye's pausable channel) so that "before" lasts as long as the test needs; the broker, the consumer and
 * the database are the real ones.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
@TestProfile(TopologyCatchUpTest.PausedOnAFullTopic.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TopologyCatchUpTest {

    public static class PausedOnAFullTopic implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("mp.messaging.incoming.topology.pausable", "true",
                    "mp.messaging.incoming.topology.pausable.initially-paused", "true",
                    // the renamed topic is in no service's grant: the administrator reads it
                    "taskgov.kafka.username", KafkaAccess.ADMIN);
        }

        @Override
        public List<TestResourceEntry> testResources() {
            return List.of(new TestResourceEntry(PrefilledTopologyTopic.class));
        }
    }

    @TestHTTPResource("/")
    URL service;

    @ConfigProperty(name = "taskgov.topics.topology")
    String topic;

    @ConfigProperty(name = PrefilledTopologyTopic.CLUSTER_PROPERTY)
    String cluster;

    @Inject
    ChannelRegistry channels;

    @Inject
    PartialView partialView;

    @Inject
    QuotaMetrics metrics;

    private static final long WHOLE_CLUSTER = (long) NODES * ACCELERATORS_PER_NODE;

    @Test
    @Order(1)
    void beforeAnyRecordIsHandledReadinessIsDownNamingEachPartitionAndCapacityAnswersWait() throws Exception {
        Map<Integer, Long> lastRecordEnds = new TreeMap<>();
        Map<Integer, Long> ends = read(lastRecordEnds);
        assertThat(ends).as("partitions").hasSize(PrefilledTopologyTopic.PARTITIONS);
        // Markers lie after every partition's last record: a count of handled records never reaches the end offset.
        ends.forEach((partition, end) -> assertThat(end).as("end of partition " + partition)
                .isGreaterThan(lastRecordEnds.get(partition)));
        String reason = "reading " + topic + " to its end as of the start: " + lastRecordEnds.entrySet().stream()
                .map(e -> "partition " + e.getKey() + " read up to offset 0 of " + e.getValue() + " (" + e.getValue() + " behind)")
                .collect(Collectors.joining(", "));

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(topologyCheck())
                .isEqualTo(Map.of("name", "topology", "status", "DOWN", "data", Map.of("reason", reason))));

        HttpResponse<String> refused = QuotaTestKit.wire(service, "SageMaker.CreateComputeQuota", wholeClusterQuota("early"));
        assertThat(refused.statusCode()).isEqualTo(503);
        assertThat(refused.headers().firstValue("x-amzn-ErrorType")).hasValue("ServiceUnavailable");
        JsonNode error = QuotaTestKit.JSON.readTree(refused.body());
        assertThat(error.get("__type").asText()).isEqualTo("ServiceUnavailable");
        assertThat(error.get("message").asText()).isEqualTo("ClusterArn: cannot tell whether this deployment governs cluster "
                + cluster + ": the cluster's topology has not been read to its end yet (" + reason + "); retry");
    }

    @Test
    @Order(2)
    void aQuotaAskedWhileAPartOfTheNodesWasReadIsNotRefusedAndFitsTheWholeClusterOnceRead() throws Exception {
        CountDownLatch paused = partialView.pauseAfter(ClusterArn.of(cluster), NODES / 3);
        channels.getPausable("topology").resume();
        assertThat(paused.await(60, TimeUnit.SECONDS)).as("paused after a third of the nodes").isTrue();
        long partial = QuotaTestKit.capacity().capacityByInstanceType(ClusterArn.of(cluster))
                .getOrDefault(TYPE, Resources.ZERO).accelerators();
        // The view the bug answered from: a quota for the whole cluster sums to more than the nodes read so far.
        assertThat(partial).isPositive().isLessThan(WHOLE_CLUSTER);
        assertThat(topologyCheck().get("status")).isEqualTo("DOWN");
        assertThat(((Map<?, ?>) topologyCheck().get("data")).get("reason").toString())
                .startsWith("reading " + topic + " to its end as of the start: partition ");

        // Nor do the gauges show that part: no capacity of the cluster, so no over-commit either.
        metrics.refresh();
        assertThat(metrics()).doesNotContain("taskgov_quota_cluster_capacity{cluster_arn=\"" + cluster + "\"");

        for (String team : List.of("partial-a", "partial-b")) {
            HttpResponse<String> answer = QuotaTestKit.wire(service, "SageMaker.CreateComputeQuota", wholeClusterQuota(team));
            assertThat(answer.statusCode()).as(answer.body()).isEqualTo(503);
            assertThat(QuotaTestKit.JSON.readTree(answer.body()).get("__type").asText()).isEqualTo("ServiceUnavailable");
        }

        // The AWS SDK retries a 503 by itself; the answer it ends with is checked against the whole cluster.
        String team = QuotaTestKit.team("whole");
        channels.getPausable("topology").resume();
        try (SageMakerClient sageMaker = patientSageMaker()) {
            String id = sageMaker.createComputeQuota(r -> r.name(team).clusterArn(cluster)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType(TYPE).accelerators((int) WHOLE_CLUSTER).build()))
                    .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
            assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).failureReason()).isNull();
        }
        assertThat(QuotaTestKit.capacity().capacityByInstanceType(ClusterArn.of(cluster)).get(TYPE).accelerators())
                .as("every committed node, not the aborted ones").isEqualTo(WHOLE_CLUSTER);
        assertThat(topologyCheck()).isEqualTo(Map.of("name", "topology", "status", "UP"));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(metrics()).contains("taskgov_quota_cluster_capacity"
                + "{cluster_arn=\"" + cluster + "\",instance_type=\"" + TYPE + "\",resource=\"accelerators\"} " + (double) WHOLE_CLUSTER));
    }

    @Test
    @Order(3)
    void onceReadToTheEndItStaysReadyWhileNewRecordsCome() {
        await().atMost(Duration.ofSeconds(60)).until(() -> "UP".equals(topologyCheck().get("status")));
        for (int i = 0; i < 50; i++) {
            QuotaTestKit.send(topic, dev.taskgov.core.cluster.ClusterScopedKey.of(ClusterArn.of(cluster), "later-" + i),
                    "{\"name\": \"later-" + i + "\", \"instanceType\": \"" + TYPE + "\", \"clusterArn\": \"" + cluster
                            + "\", \"allocatable\": {\"accelerators\": 8}}");
            assertThat(topologyCheck()).isEqualTo(Map.of("name", "topology", "status", "UP"));
        }
    }

    private static String metrics() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString();
    }

    /** The {@code topology} check of {@code /q/health/ready}, whole. */
    private static Map<String, Object> topologyCheck() {
        List<Map<String, Object>> checks = given().get("/q/health/ready").then().extract().jsonPath().getList("checks");
        return checks.stream().filter(c -> "topology".equals(c.get("name"))).findFirst().orElseThrow();
    }

    private String wholeClusterQuota(String team) {
        return "{\"Name\": \"" + team + "\", \"ClusterArn\": \"" + cluster + "\", \"ComputeQuotaConfig\": {\"ComputeQuotaResources\": "
                + "[{\"InstanceType\": \"" + TYPE + "\", \"Accelerators\": " + WHOLE_CLUSTER + "}]}, "
                + "\"ComputeQuotaTarget\": {\"TeamName\": \"" + team + "\"}}";
    }

    /** The SDK's own client with more tries than its default three, 200 ms apart: the rest of the topic takes a moment. */
    private SageMakerClient patientSageMaker() {
        return QuotaTestKit.sageMakerBuilder(service, QuotaTestKit.admin())
                .overrideConfiguration(o -> o.retryStrategy(b -> b.maxAttempts(100)
                        .backoffStrategy(BackoffStrategy.fixedDelay(Duration.ofMillis(200)))))
                .build();
    }

    /** Fills the offset after the last record of each partition; answers the end offsets (the last stable ones). */
    private Map<Integer, Long> read(Map<Integer, Long> lastRecordEnds) {
        Map<TopicPartition, Long> ends = QuotaTestKit.readTopic(topic,
                r -> lastRecordEnds.merge(r.partition(), r.offset() + 1, Math::max));
        return ends.entrySet().stream().collect(Collectors.toMap(e -> e.getKey().partition(), Map.Entry::getValue,
                (a, b) -> a, TreeMap::new));
    }
}
