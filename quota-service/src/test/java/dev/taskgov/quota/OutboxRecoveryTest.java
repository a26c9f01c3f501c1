package dev.taskgov.quota;

import dev.taskgov.quota.outbox.QuotaTopicOutbox;
import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.quota.outbox.OutboxEvent;
import dev.taskgov.quota.outbox.OutboxPublisher;
import dev.taskgov.quota.outbox.StateRepublisher;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ActivationState;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.FairShare;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;

import java.net.URL;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The transactional outbox: a committed change reaches the quota topic even when the service stops
 * publishing between the commit and the send (as if it died there), deletions become tombstones,
 * and a start republishes the current state.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class OutboxRecoveryTest {

    private static final String TYPE = "ml.g6.12xlarge";

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    @Inject
    OutboxPublisher publisher;

    @Inject
    StateRepublisher republisher;

    SageMakerClient sageMaker;

    @BeforeEach
    void setUp() {
        sageMaker = QuotaTestKit.sageMaker(service);
        if (QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).accelerators() < 16) {
            QuotaTestKit.publishNodes(TYPE, 4, 4, 48, 192);
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).accelerators() >= 16);
    }

    @AfterEach
    void resumePublishing() {
        publisher.resume();
    }

    private String createQuota(String cluster, String team, int accelerators) {
        return sageMaker.createComputeQuota(r -> r.name(team).clusterArn(cluster)
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType(TYPE).accelerators(accelerators).build()))
                .computeQuotaTarget(t -> t.teamName(team).fairShareWeight(10))).computeQuotaId();
    }

    private String describeRaw(String id) throws Exception {
        return QuotaTestKit.wire(service, "SageMaker.DescribeComputeQuota", "{\"ComputeQuotaId\":\"" + id + "\"}").body();
    }

    private static List<OutboxEvent> outboxRowsOf(String key) {
        return QuarkusTransaction.requiringNew().call(() -> OutboxEvent.<OutboxEvent>list("recordKey = ?1 order by id", key));
    }

    @Test
    void aChangeCommittedWhilePublishingIsDownArrivesOncePublishingIsBack() throws Exception {
        String team = QuotaTestKit.team("crash");
        String cluster = QuotaTestKit.newClusterArn();
        String key = QuotaTestKit.quotaKey(cluster, team);
        publisher.suspend();
        String id = createQuota(cluster, team, 3);

        // committed: the quota is there and its record waits in the outbox, not on the topic
        assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).computeQuotaVersion()).isEqualTo(1);
        List<OutboxEvent> pending = outboxRowsOf(key);
        assertThat(pending).hasSize(1);
        assertThat(pending.get(0).publishedAt).isNull();
        assertThat(QuotaTestKit.latestQuotaRecords()).doesNotContainKey(key);

        publisher.resume();

        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.latestQuotaRecords().containsKey(key));
        List<ConsumerRecord<String, String>> records = QuotaTestKit.readQuotaTopic().stream()
                .filter(r -> key.equals(r.key())).toList();
        assertThat(records).hasSize(1);
        ConsumerRecord<String, String> record = records.get(0);
        // the value is exactly the quota's Describe document (ratio defaults applied)
        assertThat(QuotaTestKit.JSON.readTree(record.value())).isEqualTo(QuotaTestKit.JSON.readTree(describeRaw(id)));
        JsonNode resource = QuotaTestKit.JSON.readTree(record.value()).path("ComputeQuotaConfig")
                .path("ComputeQuotaResources").get(0);
        assertThat(resource.path("VCpu").asDouble()).isEqualTo(36.0);
        assertThat(resource.path("MemoryInGiB").asDouble()).isEqualTo(144.0);
        Map<String, String> headers = QuotaTestKit.headers(record);
        assertThat(headers).containsEntry("ce_specversion", "1.0")
                .containsEntry("ce_type", QuotaTopicOutbox.COMPUTE_QUOTA_CHANGED)
                .containsEntry("ce_source", "urn:taskgov:quota-service")
                .containsEntry("ce_id", pending.get(0).eventId)
                .containsEntry("content-type", "application/json");
        assertThat(headers.get("ce_time")).matches("\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?Z");
        await().atMost(Duration.ofSeconds(10)).until(() -> outboxRowsOf(key).get(0).publishedAt != null);
    }

    @Test
    void updatesAndDeletionReachTheTopicInOrderAndDeletionIsATombstone() {
        String team = QuotaTestKit.team("lifecycle");
        String cluster = QuotaTestKit.newClusterArn();
        String key = QuotaTestKit.quotaKey(cluster, team);
        String id = createQuota(cluster, team, 1);
        sageMaker.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(1).activationState(ActivationState.DISABLED));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(key);
            assertThat(latest).isNotNull();
            JsonNode value = QuotaTestKit.JSON.readTree(latest.value());
            assertThat(value.path("ComputeQuotaVersion").asInt()).isEqualTo(2);
            // disabled: published, so that the admission side takes the team out of scheduling
            assertThat(value.path("ActivationState").asText()).isEqualTo("Disabled");
        });

        sageMaker.deleteComputeQuota(r -> r.computeQuotaId(id));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = QuotaTestKit.readQuotaTopic().stream()
                    .filter(r -> key.equals(r.key())).toList();
            assertThat(records).hasSize(3);
            assertThat(records.get(2).value()).isNull();
            assertThat(QuotaTestKit.headers(records.get(2))).containsEntry("ce_type", QuotaTopicOutbox.COMPUTE_QUOTA_DELETED);
        });
    }

    @Test
    void theSchedulerConfigIsPublishedUnderItsClustersKey() {
        String cluster = QuotaTestKit.newClusterArn();
        String id = sageMaker.createClusterSchedulerConfig(r -> r.name("policy").clusterArn(cluster)
                .schedulerConfig(s -> s.priorityClasses(PriorityClass.builder().name("inference").weight(90).build(),
                        PriorityClass.builder().name("training").weight(70).build()).fairShare(FairShare.ENABLED)))
                .clusterSchedulerConfigId();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(QuotaTestKit.configKey(cluster));
            assertThat(latest).isNotNull();
            JsonNode value = QuotaTestKit.JSON.readTree(latest.value());
            assertThat(value.path("ClusterSchedulerConfigId").asText()).isEqualTo(id);
            assertThat(value.path("ClusterSchedulerConfigVersion").asInt()).isEqualTo(1);
            assertThat(value.path("SchedulerConfig").toString()).isEqualTo(
                    "{\"PriorityClasses\":[{\"Name\":\"inference\",\"Weight\":90},{\"Name\":\"training\",\"Weight\":70}],"
                            + "\"FairShare\":\"Enabled\",\"IdleResourceSharing\":\"Disabled\"}");
            assertThat(QuotaTestKit.headers(latest)).containsEntry("ce_type", QuotaTopicOutbox.SCHEDULER_CONFIG_CHANGED);
        });
        sageMaker.deleteClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(QuotaTestKit.configKey(cluster));
            assertThat(latest.value()).isNull();
        });
    }

    @Test
    void aStartRepublishesTheCurrentStateOfEveryQuota() {
        String team = QuotaTestKit.team("restart");
        String cluster = QuotaTestKit.newClusterArn();
        String key = QuotaTestKit.quotaKey(cluster, team);
        String id = createQuota(cluster, team, 2);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.latestQuotaRecords().containsKey(key));

        assertThat(republisher.republishCurrentState()).isPositive();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            List<ConsumerRecord<String, String>> records = QuotaTestKit.readQuotaTopic().stream()
                    .filter(r -> key.equals(r.key())).toList();
            assertThat(records).hasSize(2);
            assertThat(QuotaTestKit.JSON.readTree(records.get(1).value()))
                    .isEqualTo(QuotaTestKit.JSON.readTree(records.get(0).value()));
            assertThat(QuotaTestKit.JSON.readTree(records.get(1).value()).path("ComputeQuotaId").asText()).isEqualTo(id);
        });
    }
}
