package dev.taskgov.topology.it;

import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A dead letter the broker refuses (a dead-letter topic name no broker can create): the bad record is not
 * acknowledged as handled, the failure is counted in {@code taskgov_deadletter_write_failures_total} and logged,
 * and nothing is counted as dead-lettered.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
@TestProfile(DeadLetterRefusedTest.UnwritableDeadLetters.class)
class DeadLetterRefusedTest {

    static final String SUBMITTED = "taskgov.workload.submitted.it-unwritable-dead-letters";

    /** Its own input topic (no other test reads the bad record) and a dead-letter topic that cannot exist. */
    public static class UnwritableDeadLetters implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("taskgov.topics.workload-submitted", SUBMITTED,
                    "taskgov.topics.deadletter", "taskgov.dead letters!");
        }
    }

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aRefusedDeadLetterIsCountedAsAFailureAndNotAsADeadLetter() throws Exception {
        String failures = "taskgov_deadletter_write_failures_total{topic=\"" + SUBMITTED + "\"}";
        String deadLettered = "taskgov_deadletter_records_total{reason=\"unreadable\",topic=\"" + SUBMITTED + "\"}";
        assertThat(metricValue(failures)).as("registered at 0").isZero();

        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
            producer.send(new ProducerRecord<>(SUBMITTED, "not-json", "{not json")).get();
        }

        await().atMost(Duration.ofMinutes(2)).until(() -> metricValue(failures) >= 1);
        assertThat(metricValue(deadLettered)).as("nothing reached a dead-letter topic").isZero();
        // Held back at that record, the consumer says so: not ready, with the reason.
        await().atMost(Duration.ofMinutes(2)).untilAsserted(() -> given().get("/q/health/ready").then().statusCode(503)
                .body("checks.find { it.name == 'workload-events' }.status", org.hamcrest.Matchers.equalTo("DOWN"))
                .body("checks.find { it.name == 'workload-events' }.data.reason",
                        org.hamcrest.Matchers.containsString("cannot write dead letters")));
        // It keeps trying (the record is not passed by).
        double counted = metricValue(failures);
        await().atMost(Duration.ofMinutes(2)).until(() -> metricValue(failures) > counted);
    }

    private static double metricValue(String series) {
        String metrics = given().get("/q/metrics").then().statusCode(200).extract().asString();
        return metrics.lines().filter(l -> l.startsWith(series + " "))
                .mapToDouble(l -> Double.parseDouble(l.substring(series.length() + 1).trim())).findFirst().orElse(-1);
    }
}
