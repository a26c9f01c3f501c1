package dev.taskgov.quota;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ConflictException;

import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** Two administrators update the same quota version at the same moment: one wins, the other gets a conflict. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ConcurrentUpdateTest {

    private static final String TYPE = "ml.g5.48xlarge";

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    @Test
    void concurrent_updates_of_one_version_let_exactly_one_through() throws Exception {
        QuotaTestKit.publishNodes(TYPE, 2, 8, 192, 768);
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).accelerators() >= 16);
        String cluster = QuotaTestKit.newClusterArn();
        String team = QuotaTestKit.team("race");
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            String id = sageMaker.createComputeQuota(r -> r.name(team).clusterArn(cluster)
                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                            .instanceType(TYPE).accelerators(2).build()))
                    .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
            for (int round = 1; round <= 5; round++) {
                int version = round;
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<String>> outcomes = new ArrayList<>();
                for (int writer = 0; writer < 2; writer++) {
                    int accelerators = 1 + writer;
                    outcomes.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            sageMaker.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(version)
                                    .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                                            .instanceType(TYPE).accelerators(accelerators).build())));
                            return "updated";
                        } catch (ConflictException e) {
                            return "conflict";
                        }
                    }));
                }
                List<String> results = new ArrayList<>();
                for (Future<String> f : outcomes) {
                    results.add(f.get(30, TimeUnit.SECONDS));
                }
                assertThat(results).as("round " + round).containsExactlyInAnyOrder("updated", "conflict");
                assertThat(sageMaker.describeComputeQuota(r -> r.computeQuotaId(id)).computeQuotaVersion())
                        .isEqualTo(version + 1);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
