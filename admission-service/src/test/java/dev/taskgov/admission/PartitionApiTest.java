package dev.taskgov.admission;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

/**
 * Accelerator partitions live: quota records with an AcceleratorPartition and MIG nodes on the topics, a
 * submission over HTTP asking for partitions, admitted by borrowing idle partitions of another team; GET /teams
 * and the quota gauges show the partitions beside the accelerators.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class PartitionApiTest {

    /** An A100 80GB instance type no other test of the module uses (its profiles include mig-1g.10gb). */
    private static final String TYPE = "ml.p4de.24xlarge";
    private static final String SLICE = "mig-1g.10gb";

    @Inject
    AdmissionRuntime runtime;

    @Test
    void aJobOfPartitionsBorrowsIdleSlicesAndTeamsAndMetricsShowThem() {
        TestCredentials.Key admin = SignedRestAssured.keyOnTopic("/workloads", "partition-test-admin", "admin");
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.migClusterOfType(TYPE, "mig-node-", 2, SLICE, 7, Map.of("mig-a", 7L, "mig-b", 7L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider().map(p -> p.quotas(dev.taskgov.core.cluster.ClusterArn.UNNAMED)
                .stream().filter(q -> q.team().startsWith("mig-")).count() == 2).orElse(false));

        // 10 pods of one slice: 7 of its own and 3 borrowed (50% of 7, rounded down) from mig-b's idle ones
        WorkloadSubmitted w = new WorkloadSubmitted("mig-a-infer-1", "hyperpod-ns-mig-a", "hyperpod-ns-mig-a-localqueue", null,
                "PyTorchJob", Instant.parse("2026-11-30T10:00:00Z"), List.of(new PodSetSpec("worker", 10, TYPE,
                new ResourceAmounts(null, null, null, Map.of(SLICE, BigDecimal.ONE)), null, null)));
        SignedRestAssured.given(admin).contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads")
                .then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> SignedRestAssured.given(admin).get("/workloads/mig-a-infer-1")
                .then().statusCode(200).body("state", equalTo("Admitted")));
        SignedRestAssured.given(admin).get("/workloads/mig-a-infer-1").then()
                .body("borrowed.'" + TYPE + "'.partitions.'" + SLICE + "'", equalTo(3));

        String a = "teams.find { it.team == 'mig-a' }.instanceTypes.'" + TYPE + "'";
        String b = "teams.find { it.team == 'mig-b' }.instanceTypes.'" + TYPE + "'";
        SignedRestAssured.given(admin).get("/teams").then().statusCode(200)
                .body(a + ".nominal.accelerators", equalTo(0))
                .body(a + ".nominal.partitions.'" + SLICE + "'", equalTo(7))
                .body(a + ".used.partitions.'" + SLICE + "'", equalTo(10))
                .body(a + ".borrowed.partitions.'" + SLICE + "'", equalTo(3))
                .body(b + ".lent.partitions.'" + SLICE + "'", equalTo(3));
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> SignedRestAssured.given(admin).get("/q/metrics").then()
                .body(containsString("taskgov_quota_used{cluster=\"\",instance_type=\"" + TYPE + "\",resource=\"partitions." + SLICE
                        + "\",team=\"mig-a\"} 10.0")));
    }
}
