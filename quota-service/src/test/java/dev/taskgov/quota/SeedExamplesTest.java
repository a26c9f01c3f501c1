package dev.taskgov.quota;

import dev.taskgov.quota.outbox.QuotaTopicOutbox;
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
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.DescribeComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingStrategy;

import java.net.URL;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The seeds' own examples run by the AWS SDK's SageMakerClient, and the quota topic (read with a
 * real KafkaConsumer) ends up holding the effective state of every team.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class SeedExamplesTest {

    private static boolean nodesPublished;

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    SageMakerClient sageMaker;

    @BeforeEach
    void setUp() {
        sageMaker = QuotaTestKit.sageMaker(service);
        if (!nodesPublished) {
            QuotaTestKit.publishNodes("ml.g5.24xlarge", 4, 4, 96, 384);   // seed 002: 16 accelerators
            QuotaTestKit.publishNodes("ml.g5.8xlarge", 15, 1, 32, 128);   // seed 001 startup: 15 GPUs
            QuotaTestKit.publishNodes("ml.p4d.24xlarge", 10, 8, 96, 1152); // seed 001 enterprise: 80 GPUs
            nodesPublished = true;
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> accelerators("ml.g5.24xlarge") >= 16
                && accelerators("ml.g5.8xlarge") >= 15 && accelerators("ml.p4d.24xlarge") >= 80);
    }

    private long accelerators(String type) {
        return QuotaTestKit.sharedCapacity().getOrDefault(type, Resources.ZERO).accelerators();
    }

    @Test
    void seed002ComputeQuotaConfigWithExplicitVcpuAndMemory() {
        String team = team("seed002");
        String id = sageMaker.createComputeQuota(r -> r.name(team).clusterArn(newClusterArn())
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType("ml.g5.24xlarge").accelerators(16).vCpu(200.0f).memoryInGiB(2.0f).build()))
                .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
        DescribeComputeQuotaResponse d = sageMaker.describeComputeQuota(r -> r.computeQuotaId(id));
        assertThat(d.computeQuotaConfig().computeQuotaResources()).containsExactly(ComputeQuotaResourceConfig.builder()
                .instanceType("ml.g5.24xlarge").accelerators(16).vCpu(200.0f).memoryInGiB(2.0f).build());
        // defaults of everything the example leaves out
        assertThat(d.computeQuotaConfig().resourceSharingConfig().strategy()).isEqualTo(ResourceSharingStrategy.LEND_AND_BORROW);
        assertThat(d.computeQuotaConfig().resourceSharingConfig().borrowLimit()).isEqualTo(50);
        assertThat(d.computeQuotaConfig().preemptTeamTasksAsString()).isEqualTo("LowerPriority");
        assertThat(d.computeQuotaTarget().fairShareWeight()).isZero();
        assertThat(d.activationStateAsString()).isEqualTo("Enabled");
    }

    @Test
    void seed002ExampleAsWrittenInTheDocumentationIsRefusedAsTheRealServiceRefusesIt() throws Exception {
        // the documentation writes "vCpu" with a small v and numbers as strings; the service model
        // knows VCpu and numbers only, so the aws CLI refuses the example before sending it ...
        String team = team("seed002-doc");
        String cluster = newClusterArn();
        String asDocumented = """
                {"Name": "%s", "ClusterArn": "%s", "ComputeQuotaTarget": {"TeamName": "%s"},
                 "ComputeQuotaConfig": {"ComputeQuotaResources": [{
                     "InstanceType": "ml.g5.24xlarge", "Accelerators": "16", "vCpu": "200.0", "MemoryInGiB": "2.0"}]}}
                """.formatted(team, cluster, team);
        AwsCli.Result cli = AwsCli.sagemaker(service, "create-compute-quota", "--cli-input-json", asDocumented);
        assertThat(cli.exitCode()).as(cli.stderr()).isNotZero();
        assertThat(cli.stderr()).contains("Unknown parameter in ComputeQuotaConfig.ComputeQuotaResources[0]: \"vCpu\"",
                "Invalid type for parameter ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators");

        // ... and the wire API refuses it too, naming each member and its rule
        HttpResponse<String> response = QuotaTestKit.wire(service, "SageMaker.CreateComputeQuota", asDocumented);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(400);
        assertThat(QuotaTestKit.JSON.readTree(response.body()).path("message").asText()).contains(
                "ComputeQuotaConfig.ComputeQuotaResources[0].vCpu: unknown member (did you mean VCpu?)",
                "ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: must be a JSON number, was \"16\"",
                "ComputeQuotaConfig.ComputeQuotaResources[0].MemoryInGiB: must be a JSON number, was \"2.0\"");

        // the same allocation as the API spells it is accepted
        String corrected = asDocumented.replace("\"16\"", "16").replace("\"vCpu\": \"200.0\"", "\"VCpu\": 200.0")
                .replace("\"2.0\"", "2.0");
        AwsCli.Result created = AwsCli.sagemaker(service, "create-compute-quota", "--cli-input-json", corrected);
        assertThat(created.exitCode()).as(created.stderr()).isZero();
        String id = QuotaTestKit.JSON.readTree(created.stdout()).path("ComputeQuotaId").asText();
        assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).computeQuotaConfig().computeQuotaResources())
                .containsExactly(ComputeQuotaResourceConfig.builder().instanceType("ml.g5.24xlarge").accelerators(16)
                        .vCpu(200.0f).memoryInGiB(2.0f).build());
    }

    @Test
    void seed002RatioDefaultsWhenOnlyAcceleratorsAreGiven() {
        String team = team("ratio");
        // 2 of a 4-accelerator instance: half of its 96 vCPU and 384 GiB
        String id = sageMaker.createComputeQuota(r -> r.name(team).clusterArn(newClusterArn())
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType("ml.g5.24xlarge").accelerators(2).build()))
                .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
        assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).computeQuotaConfig().computeQuotaResources())
                .containsExactly(ComputeQuotaResourceConfig.builder().instanceType("ml.g5.24xlarge").accelerators(2)
                        .vCpu(48.0f).memoryInGiB(192.0f).build());
    }

    private record Team(String name, int gpus, ResourceSharingStrategy strategy, Integer borrowLimit, int weight) {
    }

    /** The cluster of the teams {@link #createTeams} created last. */
    private String teamsCluster;

    private Map<String, String> createTeams(String instanceType, Team... teams) {
        String cluster = newClusterArn();
        teamsCluster = cluster;
        Map<String, String> ids = new LinkedHashMap<>();
        for (Team t : teams) {
            String id = sageMaker.createComputeQuota(r -> r.name(t.name()).clusterArn(cluster)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                                    .instanceType(instanceType).accelerators(t.gpus()).build())
                            .resourceSharingConfig(s -> s.strategy(t.strategy()).borrowLimit(t.borrowLimit())))
                    .computeQuotaTarget(q -> q.teamName(t.name()).fairShareWeight(t.weight()))).computeQuotaId();
            ids.put(t.name(), id);
        }
        return ids;
    }

    /** Waits until the quota topic's latest record of each team is its current quota, and checks it. */
    private void assertQuotaTopicHolds(String instanceType, long vcpuPerGpu, long memoryPerGpu, Map<String, String> ids,
                                       Team... teams) {
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Map<String, ConsumerRecord<String, String>> latest = QuotaTestKit.latestQuotaRecords();
            for (Team t : teams) {
                ConsumerRecord<String, String> record = latest.get(QuotaTestKit.quotaKey(teamsCluster, t.name()));
                assertThat(record).as("record of " + t.name()).isNotNull();
                assertThat(record.value()).isNotNull();
                JsonNode value = QuotaTestKit.JSON.readTree(record.value());
                assertThat(value.path("ComputeQuotaId").asText()).isEqualTo(ids.get(t.name()));
                assertThat(value.path("ComputeQuotaVersion").asInt()).isEqualTo(1);
                assertThat(value.path("ActivationState").asText()).isEqualTo("Enabled");
                assertThat(value.path("ComputeQuotaTarget").path("TeamName").asText()).isEqualTo(t.name());
                assertThat(value.path("ComputeQuotaTarget").path("FairShareWeight").asInt()).isEqualTo(t.weight());
                JsonNode config = value.path("ComputeQuotaConfig");
                assertThat(config.path("ResourceSharingConfig").path("Strategy").asText()).isEqualTo(t.strategy().toString());
                assertThat(config.path("ResourceSharingConfig").path("BorrowLimit").asInt())
                        .isEqualTo(t.borrowLimit() == null ? 50 : t.borrowLimit());
                JsonNode resource = config.path("ComputeQuotaResources").get(0);
                assertThat(resource.path("InstanceType").asText()).isEqualTo(instanceType);
                assertThat(resource.path("Accelerators").asLong()).isEqualTo(t.gpus());
                assertThat(resource.path("VCpu").decimalValue().longValue()).isEqualTo(t.gpus() * vcpuPerGpu);
                assertThat(resource.path("MemoryInGiB").decimalValue().longValue()).isEqualTo(t.gpus() * memoryPerGpu);
                Map<String, String> headers = QuotaTestKit.headers(record);
                assertThat(headers).containsEntry("ce_specversion", "1.0")
                        .containsEntry("ce_type", QuotaTopicOutbox.COMPUTE_QUOTA_CHANGED)
                        .containsEntry("ce_source", "urn:taskgov:quota-service")
                        .containsKeys("ce_id", "ce_time");
            }
        });
    }

    @Test
    void seed001TeamA6AndTeamB5LendAndBorrowAt100Percent() {
        Team a = new Team(team("team-a"), 6, ResourceSharingStrategy.LEND_AND_BORROW, 100, 0);
        Team b = new Team(team("team-b"), 5, ResourceSharingStrategy.LEND_AND_BORROW, 100, 0);
        Map<String, String> ids = createTeams("ml.g5.8xlarge", a, b);
        assertQuotaTopicHolds("ml.g5.8xlarge", 32, 128, ids, a, b);
    }

    @Test
    void seed001StartupThreeTeamsShare15Gpus() {
        Team engineering = new Team(team("ml-engineering"), 6, ResourceSharingStrategy.LEND_AND_BORROW, 50, 100);
        Team researchers = new Team(team("researchers"), 5, ResourceSharingStrategy.LEND_AND_BORROW, 50, 100);
        Team chatbot = new Team(team("realtime-chatbot"), 4, ResourceSharingStrategy.DONT_LEND, null, 100);
        Map<String, String> ids = createTeams("ml.g5.8xlarge", engineering, researchers, chatbot);
        assertQuotaTopicHolds("ml.g5.8xlarge", 32, 128, ids, engineering, researchers, chatbot);
        // the cluster is full: a fourth team is refused
        String late = team("late");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> sageMaker.createComputeQuota(r -> r.name(late)
                        .clusterArn(sageMaker.describeComputeQuota(q -> q.computeQuotaId(ids.get(chatbot.name()))).clusterArn())
                        .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                                .instanceType("ml.g5.8xlarge").accelerators(1).build()))
                        .computeQuotaTarget(q -> q.teamName(late))))
                .hasMessageContaining("the quotas for ml.g5.8xlarge sum to 16 accelerators, more than the cluster's 15 accelerators");
    }

    @Test
    void seed001EnterpriseFiveTeamsShare80Gpus() {
        Team t1 = new Team(team("team-1"), 20, ResourceSharingStrategy.DONT_LEND, null, 0);
        Team t2 = new Team(team("team-2"), 20, ResourceSharingStrategy.DONT_LEND, null, 0);
        Team t3 = new Team(team("team-3"), 5, ResourceSharingStrategy.LEND_AND_BORROW, 150, 100);
        Team t4 = new Team(team("team-4"), 10, ResourceSharingStrategy.LEND_AND_BORROW, 100, 75);
        Team t5 = new Team(team("team-5"), 25, ResourceSharingStrategy.LEND_AND_BORROW, 50, 50);
        Map<String, String> ids = createTeams("ml.p4d.24xlarge", t1, t2, t3, t4, t5);
        assertQuotaTopicHolds("ml.p4d.24xlarge", 12, 144, ids, t1, t2, t3, t4, t5);
    }
}
