package dev.taskgov.quota;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import jakarta.inject.Inject;

import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import dev.taskgov.quota.config.QuotaServiceConfig;

/** The service starts and answers on its standard endpoints, with its typed config defaults. */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class QuotaServiceSmokeTest {

    @Inject
    QuotaServiceConfig config;

    @Test
    void healthIsUp() {
        given().when().get("/q/health")
                .then().statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", org.hamcrest.Matchers.hasItem("quota-service"));
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
        for (String reason : new String[] {"unreadable", "invalid", "failed"}) {
            assertThat(metrics).containsPattern("(?m)^taskgov_deadletter_records_total\\{reason=\"" + reason
                    + "\",topic=\"taskgov.topology\"} [0-9.]+$");
        }
    }

    @Test
    void theTopologyConsumerReportsItsLag() {
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(given().when().get("/q/metrics").then().statusCode(200).extract().asString())
                        .containsPattern("(?m)^kafka_consumer_fetch_manager_records_lag_max\\{.*client_id=\"kafka-consumer-topology\".*} [0-9.E-]+$"));
    }

    @Test
    void openapiDocumentNamesTheService() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("info.title", equalTo("taskgov quota-service"));
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
