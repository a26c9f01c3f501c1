package dev.taskgov.quota;

import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import dev.taskgov.core.events.DeadLetter;
import dev.taskgov.core.events.EventCodec;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ActivationState;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Seed 001's rule: the quotas of a cluster must not sum to more than its ready nodes' allocatable,
 * learned from node records a real producer publishes to the topology topic. Each test uses an
 * instance type no other test publishes, so it knows the exact capacity.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class CapacityRuleTest {

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    private void awaitAccelerators(String instanceType, long expected) {
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(instanceType, Resources.ZERO).accelerators() == expected);
    }

    private static void createQuota(SageMakerClient sageMaker, String cluster, String team, String type, int accelerators) {
        sageMaker.createComputeQuota(r -> r.name(team).clusterArn(cluster)
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType(type).accelerators(accelerators).build()))
                .computeQuotaTarget(t -> t.teamName(team)));
    }

    @Test
    void aQuotaSumAboveCapacityIsRefusedWithTypeResourceSumAndCapacity() {
        String type = "ml.p4de.24xlarge";
        QuotaTestKit.publishNodes(type, 3, 8, 96, 1152);
        // a node that is not ready holds nothing
        QuotaTestKit.publishNode("p4de-notready-" + team("n"), type, 8, 96, 1152, false);
        awaitAccelerators(type, 24);
        String cluster = newClusterArn();
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            createQuota(sageMaker, cluster, team("a"), type, 16);
            SageMakerException refused = catchThrowableOfType(SageMakerException.class,
                    () -> createQuota(sageMaker, cluster, team("b"), type, 9));
            assertThat(refused.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(refused.awsErrorDetails().errorMessage()).contains(
                    "the quotas for ml.p4de.24xlarge sum to 25 accelerators, more than the cluster's 24 accelerators on ready nodes",
                    "the quotas for ml.p4de.24xlarge sum to 300 vcpu, more than the cluster's 288 vcpu on ready nodes");
            // exactly the capacity fits
            createQuota(sageMaker, cluster, team("c"), type, 8);
            // a disabled quota does not count, and enabling it is checked like a create
            String other = team("d");
            sageMaker.createComputeQuota(r -> r.name(other).clusterArn(cluster).activationState(ActivationState.DISABLED)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType(type).accelerators(8).build()))
                    .computeQuotaTarget(t -> t.teamName(other)));
            String otherId = sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).nameContains(other))
                    .computeQuotaSummaries().get(0).computeQuotaId();
            SageMakerException enabling = catchThrowableOfType(SageMakerException.class, () -> sageMaker.updateComputeQuota(
                    r -> r.computeQuotaId(otherId).targetVersion(1).activationState(ActivationState.ENABLED)));
            assertThat(enabling.awsErrorDetails().errorMessage())
                    .contains("the quotas for ml.p4de.24xlarge sum to 32 accelerators, more than the cluster's 24 accelerators");
        }
    }

    @Test
    void aCapacityDropIsReportedInDescribeAndAsAMetricAndNothingIsDeleted() throws Exception {
        String type = "ml.trn1n.32xlarge";
        List<String> nodes = QuotaTestKit.publishNodes(type, 4, 16, 128, 512);
        awaitAccelerators(type, 64);
        String cluster = newClusterArn();
        String team = team("shrink");
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            createQuota(sageMaker, cluster, team, type, 64);
            String id = sageMaker.listComputeQuotas(r -> r.clusterArn(cluster)).computeQuotaSummaries().get(0).computeQuotaId();
            assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).failureReason()).isNull();

            QuotaTestKit.removeNode(nodes.get(0));
            awaitAccelerators(type, 48);

            var described = sageMaker.describeComputeQuota(r -> r.computeQuotaId(id));
            assertThat(described.failureReason()).contains(
                    "over-committed: ",
                    "the quotas for ml.trn1n.32xlarge sum to 64 accelerators, more than the cluster's 48 accelerators",
                    "the quotas for ml.trn1n.32xlarge sum to 512 vcpu, more than the cluster's 384 vcpu",
                    "the quotas for ml.trn1n.32xlarge sum to 2048 GiB memory, more than the cluster's 1536 GiB memory");
            assertThat(described.status().toString()).isEqualTo("Created");
            assertThat(described.computeQuotaConfig().computeQuotaResources().get(0).accelerators()).isEqualTo(64);

            String gauge = "taskgov_quota_overcommit{cluster_arn=\"" + cluster
                    + "\",instance_type=\"ml.trn1n.32xlarge\",resource=\"accelerators\"} 16.0";
            await().atMost(Duration.ofSeconds(30)).until(() -> metrics().contains(gauge));
            assertThat(metrics()).contains("taskgov_quota_configured{cluster_arn=\"" + cluster
                    + "\",instance_type=\"ml.trn1n.32xlarge\",resource=\"accelerators\",team=\"" + team + "\"} 64.0");
            assertThat(metrics()).contains("taskgov_quota_cluster_capacity{cluster_arn=\"" + cluster
                    + "\",instance_type=\"ml.trn1n.32xlarge\",resource=\"accelerators\"} 48.0");
            assertThat(metrics()).containsPattern("taskgov_quota_api_requests_total\\{operation=\"DescribeComputeQuota\",outcome=\"success\"} [1-9]");

            // the node comes back: the report goes away
            QuotaTestKit.publishNode(nodes.get(0), type, 16, 128, 512, true);
            awaitAccelerators(type, 64);
            assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).failureReason()).isNull();
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            a record without instanceType is invalid | {"name": "NODE", "allocatable": {}}  | invalid    | instanceType: is required
            a record that is not JSON is unreadable  | not json at all                      | unreadable | unreadable NodeRecord: $:
            a JSON array is unreadable               | [1, 2]                               | unreadable | unreadable NodeRecord: $:
            trailing garbage is unreadable           | {"name": "NODE", "instanceType": "t"}xyz | unreadable | unreadable NodeRecord: $:
            ready written as text is invalid         | {"name": "NODE", "instanceType": "t", "ready": "true"} | invalid | $.ready:
            an amount written as text is invalid     | {"name": "NODE", "instanceType": "t", "allocatable": {"accelerators": "8"}} | invalid | $.allocatable.accelerators:
            an unknown resource is invalid           | {"name": "NODE", "instanceType": "t", "allocatable": {"gpus": 8}} | invalid | $.allocatable.gpus:
            """)
    void aBadNodeRecordGoesToTheDeadLetterTopicWithItsReasonAndIsCounted(
            String scenario, String value, String reason, String reasonText) throws Exception {
        String key = "broken-" + team("node");
        String counter = "taskgov_deadletter_records_total{reason=\"" + reason + "\",topic=\"taskgov.topology\"}";
        double before = QuotaTestKit.metricValue(metrics(), counter);
        QuotaTestKit.send(Names.TOPOLOGY, key, value.replace("NODE", key));
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            var dead = QuotaTestKit.readTopic(Names.DEADLETTER).stream()
                    .filter(r -> key.equals(r.key())).toList();
            assertThat(dead).hasSize(1);
            DeadLetter letter = EventCodec.mapper().readValue(dead.get(0).value(), DeadLetter.class);
            assertThat(letter.topic()).isEqualTo("taskgov.topology");
            assertThat(letter.offset()).isNotNegative();
            assertThat(letter.reason()).startsWith(reasonText);
            assertThat(letter.value()).isEqualTo(value.replace("NODE", key));
            assertThat(QuotaTestKit.headers(dead.get(0))).containsEntry("ce_type", "dev.taskgov.deadletter");
        });
        await().atMost(Duration.ofSeconds(30)).until(() -> QuotaTestKit.metricValue(metrics(), counter) == before + 1);
        // the consumer goes on with the next record
        String type = "ml.after-" + team("t");
        QuotaTestKit.publishNode("after-broken-" + team("n"), type, 0, 36, 72, true);
        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.sharedCapacity().containsKey(type));
    }

    private String metrics() throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://localhost:" + service.getPort()
                + "/q/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
    }
}
