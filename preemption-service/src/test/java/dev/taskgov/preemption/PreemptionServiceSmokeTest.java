package dev.taskgov.preemption;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import jakarta.inject.Inject;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.ResourceArg;
import org.junit.jupiter.api.Test;

import dev.taskgov.preemption.config.PreemptionServiceConfig;

/** The service starts and answers on its standard endpoints, with its typed config defaults. */
@QuarkusTest
@WithTestResource(value = KafkaTestResource.class,
        initArgs = @ResourceArg(name = KafkaTestResource.VERIFIES_REQUESTS, value = "false"))
class PreemptionServiceSmokeTest {

    @Inject
    PreemptionServiceConfig config;

    @Test
    void healthIsUp() {
        given().when().get("/q/health")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", org.hamcrest.Matchers.hasItem("preemption-service"));
    }

    @Test
    void metricsAreExposedForPrometheus() {
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void theDeciderTakesTheRequestsAndReportsItsMeters() {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(1)).untilAsserted(() ->
                given().when().get("/q/health/ready").then().statusCode(200)
                        .body("checks.find { it.name == 'preemption-decider' }.data.role", equalTo("decider")));
        given().when().get("/q/metrics").then().statusCode(200)
                .body(containsString("taskgov_preemption_grace_pending"))
                .body(containsString("taskgov_preemption_decider 1.0"))
                .body(containsString("taskgov_preemption_request_duration_seconds"));
    }

    @Test
    void theDeadLetterCounterIsThereFromTheStartForEveryInputTopicAndReason() {
        String metrics = given().when().get("/q/metrics").then().statusCode(200).extract().asString();
        for (String topic : java.util.List.of("taskgov.preemption.requested")) {
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
                .body("info.title", equalTo("taskgov preemption-service"));
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
