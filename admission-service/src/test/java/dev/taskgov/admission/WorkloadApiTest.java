package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import org.apache.kafka.clients.CommonClientConfigs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Properties;

import static io.restassured.RestAssured.given;
import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;

/**
 * The HTTP API of the running application against the shared real broker: submit, describe,
 * list, queue, dry run, and the errors (400 with fields, 404 with a message).
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class WorkloadApiTest {

    private static final String TEAM = "api-team";

    @Inject
    AdmissionRuntime runtime;

    @BeforeEach
    void cluster() {
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.cluster(2, Map.of(TEAM, 16L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(dev.taskgov.core.cluster.ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(TEAM))).orElse(false));
    }

    @Test
    void a_submission_over_http_is_admitted_and_described() {
        WorkloadSubmitted w = Fixtures.workload("api-train-1", TEAM, 4, Instant.parse("2026-11-30T10:00:00Z"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads")
                .then().statusCode(202).body("workloadId", equalTo("api-train-1"));
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-train-1").then().statusCode(200).body("state", equalTo("Admitted")));
        given().get("/workloads/api-train-1").then()
                .body("team", equalTo(TEAM))
                .body("submittedAt", equalTo("2026-11-30T10:00:00Z"))
                .body("admittedAt", notNullValue())
                .body("placement[0].name", equalTo("worker"))
                .body("placement[0].nodes.size()", equalTo(1))
                .body("history.state", org.hamcrest.Matchers.contains("Pending", "Admitted"));
        given().get("/workloads?team=" + TEAM + "&state=Admitted").then().statusCode(200)
                .body("workloadId", hasItem("api-train-1"));
        given().get("/q/metrics").then().body(containsString("taskgov_admission_admitted_total{cluster=\"\",team=\"api-team\"}"));
    }

    @Test
    void a_finished_workload_keeps_the_admission_time_and_placement_it_ran_with() {
        WorkloadSubmitted w = Fixtures.workload("api-finish-1", TEAM, 2, Instant.parse("2026-11-30T10:00:00Z"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads").then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-finish-1").then().statusCode(200).body("state", equalTo("Admitted")));
        String admittedAt = given().get("/workloads/api-finish-1").then().extract().path("admittedAt");
        String node = given().get("/workloads/api-finish-1").then().extract().path("placement[0].nodes[0].name");

        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, SharedKafka.bootstrapServers());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.finished(new WorkloadFinished("api-finish-1", Instant.now(), WorkloadFinished.Outcome.Succeeded));
        }
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-finish-1").then().statusCode(200).body("state", equalTo("Finished")));
        given().get("/workloads/api-finish-1").then()
                .body("admittedAt", equalTo(admittedAt))
                .body("placement[0].name", equalTo("worker"))
                .body("placement[0].nodes[0].name", equalTo(node))
                .body("history.state", org.hamcrest.Matchers.contains("Pending", "Admitted", "Finished"));
    }

    @Test
    void an_unknown_workload_is_404_with_a_message() {
        given().get("/workloads/nobody").then().statusCode(404).body("message", containsString("nobody"));
    }

    @Test
    void an_invalid_submission_is_400_naming_the_field() {
        WorkloadSubmitted w = Fixtures.workload("api-bad", TEAM, 1, Instant.parse("2026-11-30T10:00:00Z"));
        String body = new String(EventCodec.bytes(w)).replace("\"count\":1", "\"count\":0");
        given().contentType(ContentType.JSON).body(body).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("podSets[0].count"));
        WorkloadSubmitted unknownTeam = Fixtures.workload("api-bad-team", "no-such-team", 1, Instant.now());
        given().contentType(ContentType.JSON).body(EventCodec.bytes(unknownTeam)).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("namespace"));
    }

    @Test
    void an_id_that_breaks_the_id_rule_or_a_body_the_codec_refuses_is_400_naming_the_field() {
        WorkloadSubmitted w = Fixtures.workload("api-strict", TEAM, 1, Instant.parse("2026-11-30T10:00:00Z"));
        String good = new String(EventCodec.bytes(w));
        given().contentType(ContentType.JSON).body(good.replace("\"api-strict\"", "\"../../etc/passwd\"")).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("workloadId"))
                .body("errors.rule", hasItem(containsString("at most 253 characters")));
        given().contentType(ContentType.JSON).body(good.replace("\"api-strict\"", "\"" + "a".repeat(100_000) + "\""))
                .post("/workloads").then().statusCode(400).body("errors.field", hasItem("workloadId"));
        given().contentType(ContentType.JSON).body(good.replace("\"count\":1", "\"count\":1.5")).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("$.podSets[0].count"));
        given().contentType(ContentType.JSON).body(good + "xyz").post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("$"));
        given().urlEncodingEnabled(false).contentType(ContentType.JSON)
                .body(good.replace("\"api-strict\"", "\"Not_A_Name\"")).post("/workloads:dry-run")
                .then().statusCode(400).body("errors.field", hasItem("workloadId"));
        given().urlEncodingEnabled(false).get("/workloads/Not_A_Name").then().statusCode(400)
                .body("errors.field", hasItem("id")).body("errors.rule", hasItem(containsString("lowercase letters")));
    }

    @Test
    void a_dry_run_says_where_it_would_go_and_the_queue_says_why_others_wait() {
        WorkloadSubmitted probe = Fixtures.workload("api-probe", TEAM, 2, Instant.parse("2026-11-30T10:00:00Z"));
        given().urlEncodingEnabled(false) // curl and other clients send the colon as is
                .contentType(ContentType.JSON).body(EventCodec.bytes(probe)).post("/workloads:dry-run")
                .then().statusCode(200).body("wouldBeAdmitted", equalTo(true))
                .body("verdict", equalTo("Admitted")).body("placement[0].name", equalTo("worker"));

        WorkloadSubmitted big = Fixtures.workload("api-too-big-for-now", TEAM, 17, Instant.parse("2026-11-30T10:05:00Z"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(big)).post("/workloads").then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/teams/" + TEAM + "/pending").then().statusCode(200)
                        .body("workloads.workloadId", hasItem("api-too-big-for-now"))
                        .body("workloads[0].position", equalTo(1))
                        .body("workloads[0].reason", notNullValue()));
    }
}
