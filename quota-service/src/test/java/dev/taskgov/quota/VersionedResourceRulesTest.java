package dev.taskgov.quota;

import dev.taskgov.core.resources.Resources;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ConflictException;
import software.amazon.awssdk.services.sagemaker.model.PriorityClass;
import software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException;

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
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The rules every versioned resource changes by (quota-service's {@code VersionedResources}), tested once for both
 * kinds through the AWS SDK: of two updates of one version exactly one lands; a stale {@code TargetVersion} is a
 * conflict naming the current version; an older version is described as it was, an unknown one is not found; a
 * delete and an update of one version never both land, and a deleted resource is gone with its versions.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class VersionedResourceRulesTest {

    private static final String TYPE = "ml.g5.48xlarge";

    @TestHTTPResource("/")
    URL service;

    SageMakerClient sageMaker;

    /** The two kinds, each as create, update to a variant, describe a version, and delete. */
    enum Kind {
        COMPUTE_QUOTA {
            String create(SageMakerClient s) {
                String team = QuotaTestKit.team("versioned");
                return s.createComputeQuota(r -> r.name(team).clusterArn(QuotaTestKit.newClusterArn())
                        .computeQuotaConfig(c -> c.computeQuotaResources(resources(1)))
                        .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
            }

            int update(SageMakerClient s, String id, int target, int variant) {
                return s.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(target)
                        .computeQuotaConfig(c -> c.computeQuotaResources(resources(variant)))).computeQuotaVersion();
            }

            String describe(SageMakerClient s, String id, Integer version) {
                var d = s.describeComputeQuota(r -> r.computeQuotaId(id).computeQuotaVersion(version));
                return d.computeQuotaVersion() + ":" + d.computeQuotaConfig().computeQuotaResources().get(0).accelerators();
            }

            void delete(SageMakerClient s, String id) {
                s.deleteComputeQuota(r -> r.computeQuotaId(id));
            }

            String versionMember() {
                return "ComputeQuotaVersion";
            }
        },
        SCHEDULER_CONFIG {
            String create(SageMakerClient s) {
                return s.createClusterSchedulerConfig(r -> r.name("policy").clusterArn(QuotaTestKit.newClusterArn())
                        .schedulerConfig(c -> c.priorityClasses(priority(1)))).clusterSchedulerConfigId();
            }

            int update(SageMakerClient s, String id, int target, int variant) {
                return s.updateClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id).targetVersion(target)
                        .schedulerConfig(c -> c.priorityClasses(priority(variant)))).clusterSchedulerConfigVersion();
            }

            String describe(SageMakerClient s, String id, Integer version) {
                var d = s.describeClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id).clusterSchedulerConfigVersion(version));
                return d.clusterSchedulerConfigVersion() + ":" + d.schedulerConfig().priorityClasses().get(0).weight();
            }

            void delete(SageMakerClient s, String id) {
                s.deleteClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id));
            }

            String versionMember() {
                return "ClusterSchedulerConfigVersion";
            }
        };

        abstract String create(SageMakerClient s);

        abstract int update(SageMakerClient s, String id, int target, int variant);

        /** "version:figure" of the described version (null: the current one). */
        abstract String describe(SageMakerClient s, String id, Integer version);

        abstract void delete(SageMakerClient s, String id);

        abstract String versionMember();

        private static ComputeQuotaResourceConfig resources(int accelerators) {
            return ComputeQuotaResourceConfig.builder().instanceType(TYPE).accelerators(accelerators).build();
        }

        private static PriorityClass priority(int weight) {
            return PriorityClass.builder().name("training").weight(weight).build();
        }
    }

    @BeforeEach
    void setUp() {
        QuotaTestKit.publishNodes(TYPE, 2, 8, 192, 768);
        await().atMost(Duration.ofSeconds(60)).until(() ->
                QuotaTestKit.sharedCapacity().getOrDefault(TYPE, Resources.ZERO).accelerators() >= 16);
        sageMaker = QuotaTestKit.sageMaker(service);
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void concurrentUpdatesOfOneVersionLetExactlyOneThrough(Kind kind) throws Exception {
        String id = kind.create(sageMaker);
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 1; round <= 5; round++) {
                int version = round;
                CyclicBarrier start = new CyclicBarrier(2);
                List<Future<String>> outcomes = new ArrayList<>();
                for (int writer = 0; writer < 2; writer++) {
                    int variant = 1 + writer;
                    outcomes.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        try {
                            kind.update(sageMaker, id, version, variant);
                            return "updated";
                        } catch (ConflictException e) {
                            return "conflict";
                        }
                    }));
                }
                List<String> results = new ArrayList<>();
                for (Future<String> f : outcomes) results.add(f.get(30, TimeUnit.SECONDS));
                assertThat(results).as("round " + round).containsExactlyInAnyOrder("updated", "conflict");
                assertThat(kind.describe(sageMaker, id, null)).startsWith((version + 1) + ":");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aStaleTargetVersionConflictsAndOlderVersionsAreKeptAsTheyWere(Kind kind) {
        String id = kind.create(sageMaker);
        assertThat(kind.update(sageMaker, id, 1, 2)).isEqualTo(2);
        assertThatThrownBy(() -> kind.update(sageMaker, id, 1, 3)).isInstanceOf(ConflictException.class)
                .hasMessageContaining("TargetVersion: 1 is not the current " + kind.versionMember() + " 2");
        assertThat(kind.describe(sageMaker, id, 1)).isEqualTo("1:1");
        assertThat(kind.describe(sageMaker, id, null)).isEqualTo("2:2");
        assertThatThrownBy(() -> kind.describe(sageMaker, id, 9)).isInstanceOf(ResourceNotFoundException.class)
                .hasMessageContaining(kind.versionMember() + ": ").hasMessageContaining("has no version 9 (current version 2)");
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aDeleteAndAnUpdateOfOneVersionNeverBothLand(Kind kind) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            for (int round = 0; round < 3; round++) {
                String id = kind.create(sageMaker);
                CyclicBarrier start = new CyclicBarrier(2);
                Future<String> update = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    try {
                        kind.update(sageMaker, id, 1, 2);
                        return "updated";
                    } catch (ResourceNotFoundException | ConflictException e) {
                        return "refused";
                    }
                });
                Future<String> delete = pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    kind.delete(sageMaker, id);
                    return "deleted";
                });
                assertThat(delete.get(30, TimeUnit.SECONDS)).isEqualTo("deleted");
                update.get(30, TimeUnit.SECONDS);
                // whichever came first, the resource and every version of it are gone
                assertThatThrownBy(() -> kind.describe(sageMaker, id, null)).isInstanceOf(ResourceNotFoundException.class);
                assertThatThrownBy(() -> kind.describe(sageMaker, id, 1)).isInstanceOf(ResourceNotFoundException.class);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
