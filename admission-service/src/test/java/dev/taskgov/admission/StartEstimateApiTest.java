package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.nullValue;

/**
 * Estimated starts on the live read side (docs/semantics.md, "Estimated start"): a pending workload's
 * {@code GET /workloads/{id}} and its team's queue say when it is expected to be admitted and on what basis, from the
 * running workload's declared run time; behind a workload with no known run time the estimate is unknown and says why.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class StartEstimateApiTest {

    private static final String TEAM = "est-team";
    /** An instance type no other test of this module uses: this team's queue and nodes are its own. */
    private static final String TYPE = "ml.p5.48xlarge";
    private static TestCredentials.Key admin;

    @Inject
    AdmissionRuntime runtime;

    private static RequestSpecification given() {
        return SignedRestAssured.given(admin);
    }

    @BeforeEach
    void cluster() {
        if (admin != null) return;
        admin = SignedRestAssured.keyOnTopic("/workloads", "est-test-admin", "admin");
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.clusterOfType(TYPE, "est-node-", 1, Map.of(TEAM, 8L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(TEAM))).orElse(false));
    }

    private static WorkloadSubmitted workload(String id, int pods, Map<String, String> annotations) {
        return new WorkloadSubmitted(id, "hyperpod-ns-" + TEAM, "hyperpod-ns-" + TEAM + "-localqueue", "training-priority",
                "PyTorchJob", Instant.parse("2026-12-01T10:00:00Z"), List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(4), BigDecimal.valueOf(32)), null, null)), annotations);
    }

    private void submit(WorkloadSubmitted w, WorkloadState state) {
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads").then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload(w.workloadId()))
                .map(r -> r.state() == state).orElse(false));
    }

    @Test
    void aPendingWorkloadSaysWhenItIsExpectedToStartAndWhy() {
        submit(workload("est-1", 8, Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "PT1H")), WorkloadState.Admitted);
        submit(workload("est-2", 8, Map.of()), WorkloadState.Pending);
        submit(workload("est-3", 8, Map.of()), WorkloadState.Pending);
        Instant admittedAt = runtime.reads().flatMap(p -> p.workload("est-1")).orElseThrow().admittedAt();

        given().get("/workloads/est-2").then().statusCode(200)
                .body("startEstimate.known", equalTo(true))
                .body("startEstimate.expectedStartAt", equalTo(admittedAt.plus(Duration.ofHours(1)).toString()))
                .body("startEstimate.workloadsAhead", equalTo(0))
                .body("startEstimate.basis", equalTo("if running work ends as expected (1 end before it: 1 declared, "
                        + "0 learned from finished workloads)"))
                .body("startEstimate.message", matchesPattern("in about (59|60) min, if running work ends as expected "
                        + "\\(1 end before it: 1 declared, 0 learned from finished workloads\\); 0 workloads ahead of it"));
        given().get("/workloads/est-3").then().statusCode(200)
                .body("startEstimate.known", equalTo(false))
                .body("startEstimate.expectedStartAt", nullValue())
                .body("startEstimate.message", equalTo("unknown: it is not admitted before the work with a known end is "
                        + "done; 1 workload runs on its instance types with no known end (no declared or learned run time)"));
        // a running workload has no estimate
        given().get("/workloads/est-1").then().statusCode(200).body("startEstimate", nullValue());
        // the queue shows the same estimates, one forecast for all
        given().get("/teams/" + TEAM + "/pending").then().statusCode(200)
                .body("workloads.workloadId", contains("est-2", "est-3"))
                .body("workloads.startEstimate.known", contains(true, false))
                .body("workloads[0].startEstimate.workloadsAhead", equalTo(0));
    }

    @Test
    void aRunTimeThatIsNoDurationIs400NamingTheAnnotation() {
        given().contentType(ContentType.JSON)
                .body(EventCodec.bytes(workload("est-bad", 1, Map.of(WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "an hour"))))
                .post("/workloads").then().statusCode(400)
                .body("errors.field", hasItem("annotations." + WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION))
                .body("errors.rule", hasItem("must be an ISO-8601 duration greater than zero (the expected run time, "
                        + "e.g. PT2H or PT90M), was 'an hour'"));
        assertThat(runtime.reads().flatMap(p -> p.workload("est-bad"))).isEmpty();
    }
}
