package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Members of the current SageMaker API ({@code SchedulerConfig.IdleResourceSharing},
 * {@code ResourceSharingConfig.AbsoluteBorrowLimits}) and the API reference's defaults, through the
 * real {@code aws} CLI (v1, whose service model has both members; the pinned Java SDK does not yet).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class CurrentApiMembersTest {

    private static final String TYPE = "ml.g5.12xlarge";
    private static boolean nodesPublished;

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    @BeforeEach
    void nodes() {
        if (!nodesPublished) {
            QuotaTestKit.publishNodes(TYPE, 4, 4, 48, 192);
            nodesPublished = true;
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).accelerators() >= 16);
    }

    @Test
    void aSchedulerConfigWithoutFairShareGetsTheApiDefaultEnabledAndIdleSharingRoundTrips() throws Exception {
        String cluster = newClusterArn();
        AwsCli.Result created = AwsCli.sagemaker(service, "create-cluster-scheduler-config", "--name", "policy",
                "--cluster-arn", cluster, "--scheduler-config", "{\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 50}]}");
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        String id = JSON.readTree(created.stdout()).path("ClusterSchedulerConfigId").asText();
        JsonNode described = describeSchedulerConfig(id);
        assertThat(described.path("SchedulerConfig").path("FairShare").asText()).isEqualTo("Enabled");
        assertThat(described.path("SchedulerConfig").path("IdleResourceSharing").asText()).isEqualTo("Disabled");

        AwsCli.Result updated = AwsCli.sagemaker(service, "update-cluster-scheduler-config", "--cluster-scheduler-config-id", id,
                "--target-version", "1", "--scheduler-config",
                "{\"PriorityClasses\": [{\"Name\": \"training\", \"Weight\": 50}], \"FairShare\": \"Disabled\", \"IdleResourceSharing\": \"Enabled\"}");
        assertThat(updated.exitCode()).as(updated.stderr()).isZero();
        JsonNode v2 = describeSchedulerConfig(id);
        assertThat(v2.path("SchedulerConfig").path("FairShare").asText()).isEqualTo("Disabled");
        assertThat(v2.path("SchedulerConfig").path("IdleResourceSharing").asText()).isEqualTo("Enabled");
        // the admission and preemption services read it from the quota topic
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(QuotaTestKit.configKey(cluster));
            assertThat(latest).isNotNull();
            JsonNode value = JSON.readTree(latest.value());
            assertThat(value.path("ClusterSchedulerConfigId").asText()).isEqualTo(id);
            assertThat(value.path("SchedulerConfig").path("IdleResourceSharing").asText()).isEqualTo("Enabled");
        });

        AwsCli.Result bad = AwsCli.sagemaker(service, "update-cluster-scheduler-config", "--cluster-scheduler-config-id", id,
                "--target-version", "2", "--scheduler-config", "{\"IdleResourceSharing\": \"Sometimes\"}");
        assertThat(bad.exitCode()).isNotZero();
        assertThat(bad.stderr()).contains("ValidationException",
                "SchedulerConfig.IdleResourceSharing: must be Enabled or Disabled, was 'Sometimes'");
        assertThat(AwsCli.sagemaker(service, "delete-cluster-scheduler-config", "--cluster-scheduler-config-id", id).exitCode()).isZero();
    }

    @Test
    void absoluteBorrowLimitsAreStoredWithRatioDefaultsAndReturnedByDescribeAndOnTheTopic() throws Exception {
        String team = team("absolute");
        String cluster = newClusterArn();
        String body = """
                {"Name": "%s", "ClusterArn": "%s", "ComputeQuotaTarget": {"TeamName": "%s"},
                 "ComputeQuotaConfig": {
                   "ComputeQuotaResources": [{"InstanceType": "%s", "Accelerators": 4}],
                   "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 100,
                     "AbsoluteBorrowLimits": [{"InstanceType": "%s", "Accelerators": 2}]}}}
                """.formatted(team, cluster, team, TYPE, TYPE);
        AwsCli.Result created = AwsCli.sagemaker(service, "create-compute-quota", "--cli-input-json", body);
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        String id = JSON.readTree(created.stdout()).path("ComputeQuotaId").asText();

        AwsCli.Result described = AwsCli.sagemaker(service, "describe-compute-quota", "--compute-quota-id", id);
        assertThat(described.exitCode()).as(described.stderr()).isZero();
        JsonNode sharing = JSON.readTree(described.stdout()).path("ComputeQuotaConfig").path("ResourceSharingConfig");
        assertThat(sharing.path("BorrowLimit").asInt()).isEqualTo(100);
        // 2 of the instance's 4 accelerators: half of its 48 vCPU and 192 GiB
        assertThat(sharing.path("AbsoluteBorrowLimits").toString()).isEqualTo(
                "[{\"InstanceType\":\"" + TYPE + "\",\"Accelerators\":2,\"VCpu\":24.0,\"MemoryInGiB\":96.0}]");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(QuotaTestKit.quotaKey(cluster, team));
            assertThat(latest).isNotNull();
            assertThat(JSON.readTree(latest.value()).path("ComputeQuotaConfig").path("ResourceSharingConfig")
                    .path("AbsoluteBorrowLimits").path(0).path("Accelerators").asInt()).isEqualTo(2);
        });
    }

    @Test
    void unknownMembersAreRefusedWithTheirPathByTheCliAndByTheWireApi() throws Exception {
        String team = team("unknown");
        String body = """
                {"Name": "%s", "ClusterArn": "%s", "ComputeQuotaTarget": {"TeamName": "%s"},
                 "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "%s", "Accelerators": 1}],
                   "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "MaxBorrow": 3}}}
                """.formatted(team, newClusterArn(), team, TYPE);
        AwsCli.Result cli = AwsCli.sagemaker(service, "create-compute-quota", "--cli-input-json", body);
        assertThat(cli.exitCode()).isNotZero();
        assertThat(cli.stderr()).contains("Unknown parameter in ComputeQuotaConfig.ResourceSharingConfig: \"MaxBorrow\"");

        HttpResponse<String> wire = QuotaTestKit.wire(service, "SageMaker.CreateComputeQuota", body);
        assertThat(wire.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(wire.body()).path("__type").asText()).isEqualTo("ValidationException");
        assertThat(JSON.readTree(wire.body()).path("message").asText())
                .contains("ComputeQuotaConfig.ResourceSharingConfig.MaxBorrow: unknown member");
    }

    private JsonNode describeSchedulerConfig(String id) throws Exception {
        AwsCli.Result r = AwsCli.sagemaker(service, "describe-cluster-scheduler-config", "--cluster-scheduler-config-id", id);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return JSON.readTree(r.stdout());
    }
}
