package dev.taskgov.quota;

import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ActivationState;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaSummary;
import software.amazon.awssdk.services.sagemaker.model.ConflictException;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.DescribeComputeQuotaResponse;
import software.amazon.awssdk.services.sagemaker.model.ListComputeQuotasResponse;
import software.amazon.awssdk.services.sagemaker.model.PreemptTeamTasks;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingStrategy;
import software.amazon.awssdk.services.sagemaker.model.SchedulerResourceStatus;
import software.amazon.awssdk.services.sagemaker.model.SortOrder;
import software.amazon.awssdk.services.sagemaker.model.SortQuotaBy;
import software.amazon.awssdk.services.sagemaker.model.UpdateComputeQuotaResponse;

import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/** Create / describe / update / list / delete of compute quotas through the AWS SDK's SageMakerClient. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ComputeQuotaApiTest {

    /** ml.p5.48xlarge capacity of this class's nodes: 16 nodes = 128 accelerators. */
    private static final String P5 = "ml.p5.48xlarge";
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
            QuotaTestKit.publishNodes(P5, 16, 8, 192, 2048);
            nodesPublished = true;
        }
        await().atMost(Duration.ofSeconds(60))
                .until(() -> QuotaTestKit.sharedCapacity().getOrDefault(P5, dev.taskgov.core.resources.Resources.ZERO)
                        .accelerators() >= 128);
    }

    private CreateComputeQuotaResponse createP5(String cluster, String team, int accelerators) {
        return sageMaker.createComputeQuota(r -> r.name(team + "-quota").clusterArn(cluster).description("quota of " + team)
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                                .instanceType(P5).accelerators(accelerators).build())
                        .resourceSharingConfig(s -> s.strategy(ResourceSharingStrategy.LEND_AND_BORROW).borrowLimit(100))
                        .preemptTeamTasks(PreemptTeamTasks.LOWER_PRIORITY))
                .computeQuotaTarget(t -> t.teamName(team).fairShareWeight(100)));
    }

    @Test
    void createDescribeUpdateDeleteRoundTrip() {
        String cluster = newClusterArn();
        String team = team("round");
        Instant before = Instant.now().minusSeconds(1);

        CreateComputeQuotaResponse created = createP5(cluster, team, 4);
        assertThat(created.computeQuotaId()).matches("[a-z0-9]{12}");
        assertThat(created.computeQuotaArn())
                .isEqualTo("arn:aws:sagemaker:us-west-2:000000000000:compute-quota/" + created.computeQuotaId());

        DescribeComputeQuotaResponse d = sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()));
        assertThat(d.name()).isEqualTo(team + "-quota");
        assertThat(d.description()).isEqualTo("quota of " + team);
        assertThat(d.clusterArn()).isEqualTo(cluster);
        assertThat(d.computeQuotaVersion()).isEqualTo(1);
        assertThat(d.status()).isEqualTo(SchedulerResourceStatus.CREATED);
        assertThat(d.activationState()).isEqualTo(ActivationState.ENABLED);
        assertThat(d.failureReason()).isNull();
        assertThat(d.creationTime()).isBetween(before, Instant.now().plusSeconds(1));
        assertThat(d.lastModifiedTime()).isEqualTo(d.creationTime());
        assertThat(d.computeQuotaTarget().teamName()).isEqualTo(team);
        assertThat(d.computeQuotaTarget().fairShareWeight()).isEqualTo(100);
        // ratio defaults (seed 002): 4 of 8 accelerators = half of 192 vCPU and of 2048 GiB
        assertThat(d.computeQuotaConfig().computeQuotaResources()).containsExactly(ComputeQuotaResourceConfig.builder()
                .instanceType(P5).accelerators(4).vCpu(96f).memoryInGiB(1024f).build());
        assertThat(d.computeQuotaConfig().resourceSharingConfig().strategy()).isEqualTo(ResourceSharingStrategy.LEND_AND_BORROW);
        assertThat(d.computeQuotaConfig().resourceSharingConfig().borrowLimit()).isEqualTo(100);
        assertThat(d.computeQuotaConfig().preemptTeamTasks()).isEqualTo(PreemptTeamTasks.LOWER_PRIORITY);

        UpdateComputeQuotaResponse updated = sageMaker.updateComputeQuota(r -> r.computeQuotaId(created.computeQuotaId())
                .targetVersion(1).activationState(ActivationState.DISABLED)
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType(P5).count(1).build())));
        assertThat(updated.computeQuotaVersion()).isEqualTo(2);
        assertThat(updated.computeQuotaArn()).isEqualTo(created.computeQuotaArn());

        DescribeComputeQuotaResponse d2 = sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()));
        assertThat(d2.computeQuotaVersion()).isEqualTo(2);
        assertThat(d2.status()).isEqualTo(SchedulerResourceStatus.UPDATED);
        assertThat(d2.activationState()).isEqualTo(ActivationState.DISABLED);
        assertThat(d2.description()).isEqualTo("quota of " + team);
        assertThat(d2.creationTime()).isEqualTo(d.creationTime());
        assertThat(d2.lastModifiedTime()).isAfterOrEqualTo(d.lastModifiedTime());
        // Count 1 = one whole instance; sharing defaults when the update gives none
        assertThat(d2.computeQuotaConfig().computeQuotaResources()).containsExactly(ComputeQuotaResourceConfig.builder()
                .instanceType(P5).count(1).accelerators(8).vCpu(192f).memoryInGiB(2048f).build());
        assertThat(d2.computeQuotaConfig().resourceSharingConfig().strategy()).isEqualTo(ResourceSharingStrategy.LEND_AND_BORROW);
        assertThat(d2.computeQuotaConfig().resourceSharingConfig().borrowLimit()).isEqualTo(50);

        // the first version stays describable
        DescribeComputeQuotaResponse v1 = sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId())
                .computeQuotaVersion(1));
        assertThat(v1.computeQuotaVersion()).isEqualTo(1);
        assertThat(v1.activationState()).isEqualTo(ActivationState.ENABLED);
        assertThatThrownBy(() -> sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId())
                .computeQuotaVersion(7)))
                .isInstanceOf(ResourceNotFoundException.class).hasMessageContaining("has no version 7");

        sageMaker.deleteComputeQuota(r -> r.computeQuotaId(created.computeQuotaId()));
        assertThatThrownBy(() -> sageMaker.describeComputeQuota(r -> r.computeQuotaId(created.computeQuotaId())))
                .isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining("compute quota " + created.computeQuotaId() + " does not exist");
        assertThatThrownBy(() -> sageMaker.deleteComputeQuota(r -> r.computeQuotaId(created.computeQuotaId())))
                .isInstanceOf(ResourceNotFoundException.class);
    }

    @Test
    void oneQuotaPerTeamAndCluster() {
        String cluster = newClusterArn();
        String team = team("dup");
        createP5(cluster, team, 1);
        assertThatThrownBy(() -> createP5(cluster, team, 1))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("team '" + team + "' already has a compute quota");
        // the same team in another cluster is another quota
        assertThat(createP5(newClusterArn(), team, 1).computeQuotaId()).isNotBlank();
    }

    @Test
    void staleTargetVersionIsAConflict() {
        String cluster = newClusterArn();
        String id = createP5(cluster, team("stale"), 2).computeQuotaId();
        sageMaker.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(1).description("first"));
        assertThatThrownBy(() -> sageMaker.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(1).description("second")))
                .isInstanceOf(ConflictException.class)
                .hasMessageContaining("TargetVersion: 1 is not the current ComputeQuotaVersion 2");
        assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).description()).isEqualTo("first");
    }

    @Test
    void listFiltersSortsAndPages() {
        String cluster = newClusterArn();
        List<String> teams = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            String team = "pg" + i + "-" + QuotaTestKit.team("t");
            teams.add(team);
            createP5(cluster, team, 1);
        }
        String disabledId = sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).nameContains("pg3-"))
                .computeQuotaSummaries().get(0).computeQuotaId();
        sageMaker.updateComputeQuota(r -> r.computeQuotaId(disabledId).targetVersion(1).activationState(ActivationState.DISABLED));

        List<String> names = new ArrayList<>();
        String token = null;
        int pages = 0;
        do {
            String next = token;
            ListComputeQuotasResponse page = sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).maxResults(3)
                    .sortBy(SortQuotaBy.NAME).sortOrder(SortOrder.ASCENDING).nextToken(next));
            assertThat(page.computeQuotaSummaries()).hasSizeLessThanOrEqualTo(3);
            page.computeQuotaSummaries().forEach(s -> names.add(s.name()));
            token = page.nextToken();
            pages++;
        } while (token != null);
        assertThat(pages).isEqualTo(3);
        assertThat(names).containsExactlyElementsOf(teams.stream().map(t -> t + "-quota").sorted().toList());

        // the SDK's own paginator walks the same pages
        assertThat(sageMaker.listComputeQuotasPaginator(r -> r.clusterArn(cluster).maxResults(2)).computeQuotaSummaries()
                .stream().map(ComputeQuotaSummary::name).toList()).hasSize(7);

        List<ComputeQuotaSummary> newestFirst = sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).maxResults(100)
                .sortBy(SortQuotaBy.CREATION_TIME).sortOrder(SortOrder.DESCENDING)).computeQuotaSummaries();
        assertThat(newestFirst.get(0).name()).isEqualTo(teams.get(6) + "-quota");
        assertThat(newestFirst.get(6).name()).isEqualTo(teams.get(0) + "-quota");
        assertThat(newestFirst.get(0).computeQuotaConfig().computeQuotaResources().get(0).vCpu()).isEqualTo(24f);

        assertThat(sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).status(SchedulerResourceStatus.UPDATED))
                .computeQuotaSummaries()).extracting(ComputeQuotaSummary::computeQuotaId).containsExactly(disabledId);
        assertThat(sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).nameContains("pg5-")).computeQuotaSummaries())
                .extracting(ComputeQuotaSummary::name).containsExactly(teams.get(5) + "-quota");
        Instant fourth = newestFirst.get(3).creationTime();
        assertThat(sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).createdAfter(fourth)).computeQuotaSummaries())
                .hasSize(3);
        assertThat(sageMaker.listComputeQuotas(r -> r.clusterArn(cluster).createdBefore(fourth)).computeQuotaSummaries())
                .hasSize(3);
        assertThat(sageMaker.listComputeQuotas(r -> r.clusterArn(newClusterArn())).computeQuotaSummaries()).isEmpty();
    }
}
