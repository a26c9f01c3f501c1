package dev.taskgov.quota;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.cluster.ClusterScopedKey;
import dev.taskgov.quota.api.Ids;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

import java.net.URL;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Clusters are first-class in quota-service: a quota or scheduler config names a cluster the deployment
 * governs (one topology-service declares) or is refused as SageMaker refuses an unknown cluster; each cluster's
 * policy is its own record on the quota topic; the quota-sum rule counts one cluster's nodes only.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ClusterGovernanceTest {

    @TestHTTPResource("/")
    URL service;

    @Test
    void aQuotaOrPolicyForAClusterTheDeploymentDoesNotGovernIsResourceNotFoundNamingIt() {
        String unknown = "arn:aws:sagemaker:us-west-2:123456789012:cluster/" + Ids.newId();
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            assertThatThrownBy(() -> sageMaker.createComputeQuota(r -> r.name("q").clusterArn(unknown)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType("ml.p5.48xlarge").accelerators(8).build()))
                    .computeQuotaTarget(t -> t.teamName("team-a"))))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageContaining("ClusterArn: cluster " + unknown + " not found");
            assertThatThrownBy(() -> sageMaker.createClusterSchedulerConfig(r -> r.name("policy").clusterArn(unknown)
                    .schedulerConfig(s -> s.priorityClasses(PriorityClass.builder().name("inference").weight(90).build()))))
                    .isInstanceOf(ResourceNotFoundException.class)
                    .hasMessageContaining(unknown);
        }
    }

    @Test
    void aSecondClustersPolicyIsARecordOfItsOwnAndReplacesNothing() {
        String demo = QuotaTestKit.newClusterArn();
        String second = QuotaTestKit.newClusterArn();
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            sageMaker.createClusterSchedulerConfig(r -> r.name("demo-policy").clusterArn(demo)
                    .schedulerConfig(s -> s.priorityClasses(PriorityClass.builder().name("experiment").weight(10).build(),
                            PriorityClass.builder().name("training").weight(50).build())));
            sageMaker.createClusterSchedulerConfig(r -> r.name("second-policy").clusterArn(second)
                    .schedulerConfig(s -> s.priorityClasses(PriorityClass.builder().name("inference").weight(90).build(),
                            PriorityClass.builder().name("training").weight(50).build())));
        }
        String demoKey = ClusterScopedKey.schedulerConfig(ClusterArn.of(demo));
        String secondKey = ClusterScopedKey.schedulerConfig(ClusterArn.of(second));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            var latest = QuotaTestKit.latestQuotaRecords();
            assertThat(latest).containsKeys(demoKey, secondKey);
            assertThat(latest.get(demoKey).value()).contains("experiment").doesNotContain("inference");
            assertThat(latest.get(secondKey).value()).contains("inference").doesNotContain("experiment");
        });
    }

    @Test
    void theQuotaSumRuleCountsOnlyTheClustersOwnNodes() {
        String type = "ml.g6e.48xlarge";
        String withNodes = QuotaTestKit.newClusterArn();
        String without = QuotaTestKit.newClusterArn();
        for (int i = 0; i < 2; i++) QuotaTestKit.publishNodeIn(withNodes, "g6e-only-" + Ids.newId().substring(0, 6), type, 8);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.capacity().capacityByInstanceType(ClusterArn.of(withNodes))
                .getOrDefault(type, dev.taskgov.core.resources.Resources.ZERO).accelerators() == 16);
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            sageMaker.createComputeQuota(r -> r.name("fits").clusterArn(withNodes)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType(type).accelerators(16).build()))
                    .computeQuotaTarget(t -> t.teamName("team-a")));
            // the same team name and amount in a cluster without those nodes: nothing to sum against
            assertThatThrownBy(() -> sageMaker.createComputeQuota(r -> r.name("fits").clusterArn(without)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType(type).accelerators(16).build()))
                    .computeQuotaTarget(t -> t.teamName("team-a"))))
                    .isInstanceOf(SageMakerException.class)
                    .hasMessageContaining("ml.g6e.48xlarge");
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.latestQuotaRecords()
                .containsKey(ClusterScopedKey.of(ClusterArn.of(withNodes), "team-a")));
    }
}
