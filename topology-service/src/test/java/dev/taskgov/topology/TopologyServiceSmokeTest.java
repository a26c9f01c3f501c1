package dev.taskgov.topology;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import jakarta.inject.Inject;

import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.topology.config.TopologyServiceConfig;

/** The service starts and answers on its standard endpoints, with its typed config defaults. */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class TopologyServiceSmokeTest {

    @Inject
    TopologyServiceConfig config;

    @Test
    void healthIsUp() {
        // Ready once the workload topics were read to their end (the shared broker may hold many records by then).
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofMinutes(2)).untilAsserted(() ->
                given().when().get("/q/health")
                        .then().statusCode(200)
                        .body("status", equalTo("UP"))
                        .body("checks.name", org.hamcrest.Matchers.hasItems("topology-service", "workload-events")));
    }

    @Test
    void metricsAreExposedForPrometheus() {
        given().when().get("/q/metrics")
                .then().statusCode(200)
                .body(containsString("jvm_memory_used_bytes"));
    }

    @Test
    void openapiDocumentNamesTheService() {
        given().when().get("/q/openapi?format=json")
                .then().statusCode(200)
                .body("info.title", equalTo("taskgov topology-service"));
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
