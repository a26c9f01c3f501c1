package dev.taskgov.admission;

import static io.restassured.RestAssured.given;

import dev.taskgov.testsupport.SignedRestAssured;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import jakarta.inject.Inject;

import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import dev.taskgov.admission.config.AdmissionServiceConfig;

/**
 * The service starts and answers on its standard endpoints, with its typed config defaults. On the test's own
 * broker: without it the decider would join whatever answers on 127.0.0.1:9092 (a local runtime's).
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class AdmissionServiceSmokeTest {

    @Inject
    AdmissionServiceConfig config;

    @Test
    void healthIsUpOnceTheInstanceAnswersReads() {
        // Readiness waits for the decider's state (or the read replica's): until then reads would answer 503.
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(2)).untilAsserted(() ->
                given().when().get("/q/health")
                        .then().statusCode(200)
                        .body("status", equalTo("UP"))
                        .body("checks.name", org.hamcrest.Matchers.hasItem("admission-service"))
                        .body("checks.find { it.name == 'admission-decider' }.data.reads", equalTo("decider")));
        given().when().get("/workloads").then().statusCode(403).header("x-amzn-ErrorType", "MissingAuthenticationTokenException");
        SignedRestAssured.given(SignedRestAssured.keyOnTopic("/workloads", "smoke-viewer", "viewer"))
                .when().get("/workloads").then().statusCode(200);
    }

    @Test
    void metricsAreExposedForPrometheus() {
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void theDeadLetterCounterIsThereFromTheStartForEveryInputTopicAndReason() {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String topic : java.util.List.of("taskgov.workload.submitted", "taskgov.workload.finished", "taskgov.workload.preempted", "taskgov.quota", "taskgov.topology")) {
            for (String reason : java.util.List.of("unreadable", "invalid", "failed")) {
                assertThat(metrics).containsPattern("(?m)^taskgov_deadletter_records_total\\{reason=\"" + reason
                        + "\",topic=\"" + java.util.regex.Pattern.quote(topic) + "\"} [0-9.]+$");
            }
        }
    }

    @Test
    void openapiDocumentNamesTheService() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("info.title", equalTo("taskgov admission-service"));
    }

    @Test
    void topicNamesDefaultToTheDesign() {
        assertThat(config.topics().workloadSubmitted()).isEqualTo("taskgov.workload.submitted");
        assertThat(config.topics().workloadStatus()).isEqualTo("taskgov.workload.status");
        assertThat(config.topics().quota()).isEqualTo("taskgov.quota");
        assertThat(config.topics().topology()).isEqualTo("taskgov.topology");
        assertThat(config.topics().deadletter()).isEqualTo("taskgov.deadletter");
    }
}
