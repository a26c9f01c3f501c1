package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.AcceleratorPartitionConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

import java.net.URL;
import java.time.Duration;
import java.util.Map;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * {@code AcceleratorPartition {Type, Count}} in ComputeQuotaResources, through the real SDK client and the
 * real {@code aws} CLI: accepted, stored, described with no ratio defaults, published on the quota
 * topic, refused for a profile the instance type does not offer, and counted in the quota-sum check
 * against the partitions the nodes offer.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AcceleratorPartitionApiTest {

    /** An H200 instance type (MIG profiles mig-1g.18gb ... mig-7g.141gb) no other test of the module uses. */
    private static final String TYPE = "ml.p5en.48xlarge";
    private static final String SLICE = "mig-1g.18gb";
    private static boolean nodesPublished;

    @TestHTTPResource("/")
    URL service;

    @BeforeEach
    void nodes() {
        if (!nodesPublished) {
            // Two nodes whose GPUs are in MIG mode: 7 slices each, 14 in the cluster.
            QuotaTestKit.publishMigNodes(TYPE, 2, Map.of(SLICE, 7L), 192, 2048);
            nodesPublished = true;
        }
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).partition(SLICE) >= 14);
    }

    private static ComputeQuotaResourceConfig slices(int count) {
        return ComputeQuotaResourceConfig.builder().instanceType(TYPE)
                .acceleratorPartition(p -> p.type(SLICE).count(count)).build();
    }

    private static CreateComputeQuotaResponse create(SageMakerClient sageMaker, String cluster, String team, int count) {
        return sageMaker.createComputeQuota(r -> r.name(team + "-quota").clusterArn(cluster)
                .computeQuotaConfig(c -> c.computeQuotaResources(slices(count)))
                .computeQuotaTarget(t -> t.teamName(team)));
    }

    @Test
    void theSdkRoundTripsAnAcceleratorPartitionWithoutRatioDefaultsAndThePlatformReadsIt() {
        String cluster = newClusterArn();
        String team = team("mig");
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            CreateComputeQuotaResponse created = create(sageMaker, cluster, team, 7);
            DescribeComputeQuotaResponse d = sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()));
            assertThat(d.computeQuotaConfig().computeQuotaResources()).containsExactly(ComputeQuotaResourceConfig.builder()
                    .instanceType(TYPE).accelerators(0).vCpu(0f).memoryInGiB(0f)
                    .acceleratorPartition(AcceleratorPartitionConfig.builder().type(SLICE).count(7).build()).build());

            sageMaker.updateComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()).targetVersion(1)
                    .computeQuotaConfig(c -> c.computeQuotaResources(slices(5))));
            DescribeComputeQuotaResponse d2 = sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()));
            assertThat(d2.computeQuotaConfig().computeQuotaResources().get(0).acceleratorPartition())
                    .isEqualTo(AcceleratorPartitionConfig.builder().type(SLICE).count(5).build());
        }
        // The admission and preemption services read the effective quota from the quota topic.
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            ConsumerRecord<String, String> latest = QuotaTestKit.latestQuotaRecords().get(QuotaTestKit.quotaKey(cluster, team));
            assertThat(latest).isNotNull();
            JsonNode entry = JSON.readTree(latest.value()).path("ComputeQuotaConfig").path("ComputeQuotaResources").path(0);
            assertThat(entry.path("AcceleratorPartition").path("Type").asText()).isEqualTo(SLICE);
            assertThat(entry.path("AcceleratorPartition").path("Count").asInt()).isEqualTo(5);
        });
    }

    @Test
    void theAwsCliRoundTripsAnAcceleratorPartition() throws Exception {
        String cluster = newClusterArn();
        String team = team("migcli");
        AwsCli.Result created = AwsCli.sagemaker(service, "create-compute-quota", "--name", team + "-quota", "--cluster-arn", cluster,
                "--compute-quota-config", "{\"ComputeQuotaResources\": [{\"InstanceType\": \"" + TYPE + "\", "
                        + "\"AcceleratorPartition\": {\"Type\": \"" + SLICE + "\", \"Count\": 3}}]}",
                "--compute-quota-target", "{\"TeamName\": \"" + team + "\"}");
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        String id = JSON.readTree(created.stdout()).path("ComputeQuotaId").asText();
        AwsCli.Result described = AwsCli.sagemaker(service, "describe-compute-quota", "--compute-quota-id", id);
        assertThat(described.exitCode()).as(described.stderr()).isZero();
        JsonNode entry = JSON.readTree(described.stdout()).path("ComputeQuotaConfig").path("ComputeQuotaResources").path(0);
        assertThat(entry.path("AcceleratorPartition")).isEqualTo(JSON.readTree("{\"Type\": \"" + SLICE + "\", \"Count\": 3}"));
    }

    @Test
    void anUnknownProfileIsAValidationExceptionNamingTheMember() {
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            SageMakerException e = catchThrowableOfType(SageMakerException.class, () -> sageMaker.createComputeQuota(r -> r
                    .name("q").clusterArn(newClusterArn()).computeQuotaTarget(t -> t.teamName(team("migbad")))
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder().instanceType(TYPE)
                            .acceleratorPartition(p -> p.type("mig-1g.10gb").count(1)).build()))));
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(e.awsErrorDetails().errorMessage()).contains("ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Type: "
                    + "instance type 'ml.p5en.48xlarge' offers mig-1g.18gb, mig-1g.35gb, mig-2g.35gb, mig-3g.71gb, mig-4g.71gb, "
                    + "mig-7g.141gb, not 'mig-1g.10gb'");
        }
    }

    @Test
    void partitionQuotasMayNotSumAboveWhatTheNodesOffer() {
        String cluster = newClusterArn();
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            create(sageMaker, cluster, team("miga"), 7);
            create(sageMaker, cluster, team("migb"), 7);
            SageMakerException e = catchThrowableOfType(SageMakerException.class,
                    () -> create(sageMaker, cluster, team("migc"), 1));
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorMessage()).contains("sum to 15 " + SLICE + " partitions, more than the cluster's 14 "
                    + SLICE + " partitions on ready nodes");
        }
    }
}
