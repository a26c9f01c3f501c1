package dev.taskgov.admission;

import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.restassured.specification.RequestSpecification;
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

import static org.awaitility.Awaitility.await;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.hasItems;
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

    private static TestCredentials.Key admin;

    /** Requests signed with an admin key (the access rules themselves: ApiAccessMatrixTest). */
    private static RequestSpecification given() {
        return SignedRestAssured.given(admin);
    }

    @BeforeEach
    void cluster() {
        if (admin == null) {
            admin = SignedRestAssured.keyOnTopic("/workloads", "api-test-admin", "admin");
        }
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.cluster(2, Map.of(TEAM, 16L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(dev.taskgov.core.cluster.ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(TEAM))).orElse(false));
    }

    @Test
    void aSubmissionOverHttpIsAdmittedAndDescribed() {
        WorkloadSubmitted w = Fixtures.workload("api-train-1", TEAM, 4, Instant.parse("2026-11-30T10:00:00Z"))
                .withAnnotations(java.util.Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "example/train:1"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads")
                .then().statusCode(202).body("workloadId", equalTo("api-train-1"));
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-train-1").then().statusCode(200).body("state", equalTo("Admitted")));
        given().get("/workloads/api-train-1").then()
                .body("team", equalTo(TEAM))
                // the platform stamps its place in the queue; the client's time is kept as information only
                .body("submittedAt", notNullValue())
                .body("clientSubmittedAt", equalTo("2026-11-30T10:00:00Z"))
                .body("admittedAt", notNullValue())
                .body("placement[0].name", equalTo("worker"))
                .body("placement[0].nodes.size()", equalTo(1))
                .body("history.state", org.hamcrest.Matchers.contains("Pending", "Admitted"))
                .body("annotations.'taskgov.dev/image'", equalTo("example/train:1"));
        given().get("/workloads?team=" + TEAM + "&state=Admitted").then().statusCode(200)
                .body("workloadId", hasItem("api-train-1"));
        given().get("/q/metrics").then().body(containsString("taskgov_admission_admitted_total{cluster=\"\",team=\"api-team\"}"));
    }

    @Test
    void aFinishedWorkloadKeepsTheAdmissionTimeAndPlacementItRanWith() {
        WorkloadSubmitted w = Fixtures.workload("api-finish-1", TEAM, 2, Instant.parse("2026-11-30T10:00:00Z"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads").then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-finish-1").then().statusCode(200).body("state", equalTo("Admitted")));
        String admittedAt = given().get("/workloads/api-finish-1").then().extract().path("admittedAt");
        String node = given().get("/workloads/api-finish-1").then().extract().path("placement[0].nodes[0].name");

        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
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
    void teamsShowsEachTeamsQuotaUseAndPendingInTheOneCluster() {
        WorkloadSubmitted w = Fixtures.workload("api-teams-1", TEAM, 4, Instant.parse("2026-11-30T10:00:00Z"));
        given().contentType(ContentType.JSON).body(EventCodec.bytes(w)).post("/workloads").then().statusCode(202);
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get("/workloads/api-teams-1").then().statusCode(200).body("state", equalTo("Admitted")));
        String type = "instanceTypes.'" + Fixtures.TYPE + "'";
        // the cluster may be left out while the deployment governs one, as for a submission
        given().get("/teams").then().statusCode(200)
                .body("clusterArn", org.hamcrest.Matchers.nullValue())
                .body("teams.team", hasItem(TEAM))
                .body("teams.find { it.team == '" + TEAM + "' }." + type + ".nominal.accelerators", equalTo(16))
                .body("teams.find { it.team == '" + TEAM + "' }." + type + ".nominal.vcpu", equalTo(192))
                .body("teams.find { it.team == '" + TEAM + "' }." + type + ".used.accelerators",
                        org.hamcrest.Matchers.greaterThanOrEqualTo(4))
                .body("teams.find { it.team == '" + TEAM + "' }." + type + ".borrowed.accelerators", equalTo(0))
                .body("teams.find { it.team == '" + TEAM + "' }." + type + ".lent.accelerators", equalTo(0));
        given().get("/teams?cluster=arn:aws:sagemaker:us-west-2:123456789012:cluster/nowhere00000").then().statusCode(404)
                .body("errors[0].field", equalTo("cluster"));
        given().get("/teams?cluster=not-an-arn").then().statusCode(400).body("errors[0].field", equalTo("cluster"));
    }

    @Test
    void anUnknownWorkloadIs404WithAMessage() {
        given().get("/workloads/nobody").then().statusCode(404).body("message", containsString("nobody"));
    }

    @Test
    void anInvalidSubmissionIs400NamingTheField() {
        WorkloadSubmitted w = Fixtures.workload("api-bad", TEAM, 1, Instant.parse("2026-11-30T10:00:00Z"));
        String body = new String(EventCodec.bytes(w)).replace("\"count\":1", "\"count\":0");
        given().contentType(ContentType.JSON).body(body).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("podSets[0].count"));
        WorkloadSubmitted unknownTeam = Fixtures.workload("api-bad-team", "no-such-team", 1, Instant.now());
        given().contentType(ContentType.JSON).body(EventCodec.bytes(unknownTeam)).post("/workloads")
                .then().statusCode(400).body("errors.field", hasItem("namespace"));
    }

    @Test
    void anIdThatBreaksTheIdRuleOrABodyTheCodecRefusesIs400NamingTheField() {
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
    void aDryRunSaysWhereItWouldGoAndTheQueueSaysWhyOthersWait() {
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

    @Test
    void kueuesVisibilityApiListsATeamsPendingWorkloadsByItsClusterQueueAndLocalQueue() {
        for (String id : new String[] {"api-kueue-first", "api-kueue-second"}) {
            Instant at = Instant.parse(id.endsWith("first") ? "2026-11-30T11:00:00Z" : "2026-11-30T11:01:00Z");
            given().contentType(ContentType.JSON).body(EventCodec.bytes(Fixtures.workload(id, TEAM, 17, at)))
                    .post("/workloads").then().statusCode(202);
        }
        String base = "/apis/visibility.kueue.x-k8s.io/v1beta1";
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() ->
                given().get(base + "/clusterqueues/hyperpod-ns-" + TEAM + "-clusterqueue/pendingworkloads").then().statusCode(200)
                        .body("kind", equalTo("PendingWorkloadsSummary"))
                        .body("apiVersion", equalTo("visibility.kueue.x-k8s.io/v1beta1"))
                        .body("items.metadata.name", hasItems("api-kueue-first", "api-kueue-second")));
        var items = given().get(base + "/namespaces/hyperpod-ns-" + TEAM + "/localqueues/hyperpod-ns-" + TEAM
                + "-localqueue/pendingworkloads").then().statusCode(200).extract().jsonPath();
        int first = items.getList("items.metadata.name").indexOf("api-kueue-first");
        int second = items.getList("items.metadata.name").indexOf("api-kueue-second");
        assertThat(items.getInt("items[" + first + "].positionInClusterQueue")).isEqualTo(first)
                .isLessThan(items.getInt("items[" + second + "].positionInClusterQueue"));
        assertThat(items.getInt("items[" + first + "].positionInLocalQueue")).isEqualTo(first);
        assertThat(items.getString("items[" + first + "].metadata.namespace")).isEqualTo("hyperpod-ns-" + TEAM);
        assertThat(items.getString("items[" + first + "].localQueueName")).isEqualTo("hyperpod-ns-" + TEAM + "-localqueue");
        // paging as in Kueue: offset skips, limit caps, positions stay those of the whole queue
        given().get(base + "/clusterqueues/" + TEAM + "/pendingworkloads?offset=" + second + "&limit=1").then().statusCode(200)
                .body("items.size()", equalTo(1)).body("items[0].metadata.name", equalTo("api-kueue-second"))
                .body("items[0].positionInClusterQueue", equalTo(second));
        given().get(base + "/clusterqueues/hyperpod-ns-nobody-clusterqueue/pendingworkloads").then().statusCode(404)
                .body("kind", equalTo("Status")).body("reason", equalTo("NotFound"))
                .body("message", containsString("hyperpod-ns-nobody-clusterqueue"));
        given().get(base + "/namespaces/default/localqueues/hyperpod-ns-" + TEAM + "-localqueue/pendingworkloads").then()
                .statusCode(404).body("reason", equalTo("NotFound"));
    }
}
