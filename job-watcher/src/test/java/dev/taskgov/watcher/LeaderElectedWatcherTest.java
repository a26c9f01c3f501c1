package dev.taskgov.watcher;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.ResourceArg;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.quarkus.test.kubernetes.client.KubernetesServer;
import io.quarkus.test.kubernetes.client.KubernetesTestServer;
import io.quarkus.test.kubernetes.client.WithKubernetesTestServer;
import jakarta.inject.Inject;

/**
 * The watcher with leader election on (fabric8's mock API server in CRUD mode, a real broker): it
 * governs jobs only while it holds the Lease; while another replica holds it, it is ready but
 * submits nothing; when it leads again it re-lists and submits what it missed.
 */
@QuarkusTest
@TestProfile(LeaderElectionProfile.class)
@WithTestResource(value = KafkaTestResource.class,
        initArgs = @ResourceArg(name = KafkaTestResource.VERIFIES_REQUESTS, value = "false"))
@WithKubernetesTestServer(crud = true, https = false)
class LeaderElectedWatcherTest {
    static final String NS = "hyperpod-ns-team-name";
    static final Duration WAIT = Duration.ofSeconds(60);

    @KubernetesTestServer
    KubernetesServer server;

    @Inject
    JobWatcher watcher;


    @Test
    void onlyTheLeaseHolderGovernsJobs() {
        KubernetesClient k8s = server.getClient();
        await().atMost(WAIT).until(() -> watcher.synced() && LeaderElectionProfile.IDENTITY.equals(holder(k8s)));
        String first = create(k8s, "while-leading");
        await().atMost(WAIT).until(() -> TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, first).size() == 1);

        // Another replica takes over: this one stops acting but stays ready (it serves the webhook).
        watcher.leadership().stop();
        AtomicInteger otherLeads = new AtomicInteger();
        Leadership other = new Leadership(k8s, "taskgov-system", "taskgov-job-watcher", "job-watcher-test-1",
                new Leadership.Timing(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(300)),
                otherLeads::incrementAndGet, () -> { });
        other.start();
        await().atMost(WAIT).until(() -> other.leading() && "job-watcher-test-1".equals(holder(k8s)));
        assertThat(watcher.standby()).isTrue();
        given().when().get("/q/health/ready").then().statusCode(200);
        String missed = create(k8s, "while-standby");
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, missed).isEmpty());

        // The other replica stops; this one leads again, re-lists and submits the job it missed, once.
        other.stop();
        watcher.leadership().start();
        await().atMost(WAIT).until(() -> TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, missed).size() == 1);
        assertThat(holder(k8s)).isEqualTo(LeaderElectionProfile.IDENTITY);
        assertThat(TopicRecords.withKey(Names.WORKLOAD_SUBMITTED, first)).hasSize(1);
    }

    private static String create(KubernetesClient k8s, String name) {
        Job job = Serialization.unmarshal(LeaderElectedWatcherTest.class.getResourceAsStream("/manifests/job-required-topology.yaml"), Job.class);
        job.getMetadata().setName(name);
        Job created = k8s.batch().v1().jobs().resource(job).create();
        return "team-name-" + name + "-" + created.getMetadata().getUid().substring(0, 8);
    }

    private static String holder(KubernetesClient k8s) {
        Lease lease = k8s.resources(Lease.class).inNamespace("taskgov-system").withName("taskgov-job-watcher").get();
        return lease == null || lease.getSpec() == null ? null : lease.getSpec().getHolderIdentity();
    }
}
