package dev.taskgov.quota;

import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ClusterSchedulerConfigSummary;
import software.amazon.awssdk.services.sagemaker.model.ConflictException;
import software.amazon.awssdk.services.sagemaker.model.CreateClusterSchedulerConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeClusterSchedulerConfigResponse;
import software.amazon.awssdk.services.sagemaker.model.FairShare;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;
import software.amazon.awssdk.services.sagemaker.model.SchedulerResourceStatus;
import software.amazon.awssdk.services.sagemaker.model.SortClusterSchedulerConfigBy;
import software.amazon.awssdk.services.sagemaker.model.SortOrder;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;

import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The five ClusterSchedulerConfig operations through the AWS SDK's SageMakerClient. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class SchedulerConfigApiTest {

    @TestHTTPResource("/")
    URL service;

    SageMakerClient sageMaker;

    @BeforeEach
    void setUp() {
        sageMaker = QuotaTestKit.sageMaker(service);
    }

    private static PriorityClass priority(String name, int weight) {
        return PriorityClass.builder().name(name).weight(weight).build();
    }

    @Test
    void createDescribeUpdateDeleteRoundTrip() {
        String cluster = newClusterArn();
        CreateClusterSchedulerConfigResponse created = sageMaker.createClusterSchedulerConfig(r -> r.name("cluster-policy")
                .clusterArn(cluster).description("inference first")
                .schedulerConfig(s -> s.priorityClasses(priority("inference", 90), priority("training", 70))
                        .fairShare(FairShare.DISABLED)));
        assertThat(created.clusterSchedulerConfigArn()).isEqualTo(
                "arn:aws:sagemaker:us-west-2:000000000000:cluster-scheduler-config/" + created.clusterSchedulerConfigId());

        DescribeClusterSchedulerConfigResponse d = sageMaker.describeClusterSchedulerConfig(
                r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId()));
        assertThat(d.name()).isEqualTo("cluster-policy");
        assertThat(d.clusterArn()).isEqualTo(cluster);
        assertThat(d.description()).isEqualTo("inference first");
        assertThat(d.clusterSchedulerConfigVersion()).isEqualTo(1);
        assertThat(d.status()).isEqualTo(SchedulerResourceStatus.CREATED);
        assertThat(d.schedulerConfig().priorityClasses()).containsExactly(priority("inference", 90), priority("training", 70));
        assertThat(d.schedulerConfig().fairShare()).isEqualTo(FairShare.DISABLED);
        assertThat(d.creationTime()).isNotNull();

        assertThat(sageMaker.updateClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId())
                .targetVersion(1).schedulerConfig(s -> s.priorityClasses(priority("inference", 100))))
                .clusterSchedulerConfigVersion()).isEqualTo(2);
        DescribeClusterSchedulerConfigResponse d2 = sageMaker.describeClusterSchedulerConfig(
                r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId()));
        assertThat(d2.status()).isEqualTo(SchedulerResourceStatus.UPDATED);
        assertThat(d2.schedulerConfig().priorityClasses()).containsExactly(priority("inference", 100));
        // FairShare not given: the API reference's default, Enabled (not the previous version's value)
        assertThat(d2.schedulerConfig().fairShare()).isEqualTo(FairShare.ENABLED);
        assertThat(d2.description()).isEqualTo("inference first");
        assertThat(sageMaker.describeClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId())
                .clusterSchedulerConfigVersion(1)).schedulerConfig().fairShare()).isEqualTo(FairShare.DISABLED);

        assertThatThrownBy(() -> sageMaker.updateClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(
                created.clusterSchedulerConfigId()).targetVersion(1).description("late")))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("TargetVersion: 1 is not the current ClusterSchedulerConfigVersion 2");

        sageMaker.deleteClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId()));
        assertThatThrownBy(() -> sageMaker.describeClusterSchedulerConfig(
                r -> r.clusterSchedulerConfigId(created.clusterSchedulerConfigId())))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void oneSchedulerConfigPerCluster() {
        String cluster = newClusterArn();
        sageMaker.createClusterSchedulerConfig(r -> r.name("first").clusterArn(cluster).schedulerConfig(s -> s.fairShare("Enabled")));
        assertThatThrownBy(() -> sageMaker.createClusterSchedulerConfig(r -> r.name("second").clusterArn(cluster)
                .schedulerConfig(s -> s.fairShare("Enabled"))))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("already has a cluster scheduler config");
    }

    @Test
    void invalidSchedulerConfigsAreRefusedWithTheField() {
        String cluster = newClusterArn();
        record Case(String name, List<PriorityClass> classes, String fairShare, String message) {
        }
        List<Case> cases = List.of(
                new Case("weight above 100", List.of(priority("inference", 101)), null,
                        "SchedulerConfig.PriorityClasses[0].Weight: must be a whole number in 0..100, was 101"),
                new Case("weight missing", List.of(PriorityClass.builder().name("x").build()), null,
                        "SchedulerConfig.PriorityClasses[0].Weight: must be a whole number in 0..100"),
                new Case("name with capitals", List.of(priority("Inference", 1)), null,
                        "SchedulerConfig.PriorityClasses[0].Name: must match"),
                new Case("name twice", List.of(priority("a", 1), priority("a", 2)), null,
                        "SchedulerConfig.PriorityClasses[1].Name: priority class 'a' is given twice"),
                new Case("fair share unknown", List.of(), "Sometimes", "SchedulerConfig.FairShare: must be Enabled or Disabled, was 'Sometimes'"));
        List<String> failures = new ArrayList<>();
        for (Case c : cases) {
            try {
                sageMaker.createClusterSchedulerConfig(r -> r.name("bad").clusterArn(cluster)
                        .schedulerConfig(s -> s.priorityClasses(c.classes()).fairShare(c.fairShare())));
                failures.add(c.name() + ": accepted");
            } catch (SageMakerException e) {
                if (e.statusCode() != 400 || !e.awsErrorDetails().errorCode().equals("ValidationException")
                        || !e.awsErrorDetails().errorMessage().contains(c.message())) {
                    failures.add(c.name() + ": " + e.awsErrorDetails().errorMessage());
                }
            }
        }
        assertThat(failures).isEmpty();
        assertThatThrownBy(() -> sageMaker.createClusterSchedulerConfig(r -> r.name("bad").clusterArn(cluster)))
                .isInstanceOf(SageMakerException.class).hasMessageContaining("SchedulerConfig: is required");
    }

    @Test
    void listFiltersSortsAndPages() {
        List<String> clusters = new ArrayList<>();
        String marker = "lst" + QuotaTestKit.team("c").substring(2);
        for (int i = 0; i < 5; i++) {
            String cluster = newClusterArn();
            clusters.add(cluster);
            int n = i;
            sageMaker.createClusterSchedulerConfig(r -> r.name(marker + "-" + n).clusterArn(cluster)
                    .schedulerConfig(s -> s.fairShare(FairShare.DISABLED)));
        }
        List<String> names = new ArrayList<>();
        String token = null;
        do {
            String next = token;
            var page = sageMaker.listClusterSchedulerConfigs(r -> r.nameContains(marker).maxResults(2)
                    .sortBy(SortClusterSchedulerConfigBy.NAME).sortOrder(SortOrder.DESCENDING).nextToken(next));
            page.clusterSchedulerConfigSummaries().forEach(s -> names.add(s.name()));
            token = page.nextToken();
        } while (token != null);
        assertThat(names).containsExactly(marker + "-4", marker + "-3", marker + "-2", marker + "-1", marker + "-0");
        assertThat(sageMaker.listClusterSchedulerConfigs(r -> r.clusterArn(clusters.get(2))).clusterSchedulerConfigSummaries())
                .extracting(ClusterSchedulerConfigSummary::name).containsExactly(marker + "-2");
    }
}
