package dev.taskgov.admission;

import dev.taskgov.testsupport.KafkaTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A request path no endpoint serves is not a metrics label: any caller, without a key, could otherwise add a series
 * to {@code /q/metrics} per request (the raw path as the {@code uri} tag) and grow the service's memory and every
 * scrape without bound.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class HttpMetricsLabelTest {

    private static long httpSeries() {
        return given().get("/q/metrics").then().statusCode(200).extract().asString().lines()
                .filter(l -> l.startsWith("http_server_requests_seconds_count{")).count();
    }

    private static void unmatched(String tag) {
        given().body("{}").put("/workloads/" + tag);
        given().delete("/workloads/" + tag);
        given().get("/no-such-endpoint/" + tag);
        given().post("/workloads/" + tag + "/x");
        given().get("/workloads/" + tag + "%00");
    }

    @Test
    void randomUnmatchedPathsDoNotGrowTheSeriesCount() {
        for (int i = 0; i < 3; i++) unmatched(UUID.randomUUID().toString()); // every kind of answer once
        long before = httpSeries();
        for (int i = 0; i < 40; i++) unmatched(UUID.randomUUID().toString());
        long after = httpSeries();
        String metrics = given().get("/q/metrics").then().extract().asString();
        assertThat(after).as(metrics.lines().filter(l -> l.startsWith("http_server_requests_seconds_count{"))
                .reduce("", (a, b) -> a + "\n" + b)).isEqualTo(before);
    }
}
