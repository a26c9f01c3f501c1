package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskgov.core.auth.SafeText;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * admission-service's door records every refused request whatever control characters its path, query or body
 * carries, escaped, on the audit topic (where quota-service stores them): none is lost, none can forge a line.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class DoorAuditEscapingTest {

    static Map<String, String> hostile() {
        Map<String, String> all = new LinkedHashMap<>();
        for (char c = 0; c < 0x20; c++) all.put(String.format("0x%02X", (int) c), String.valueOf(c));
        all.put("0x7F", "\u007F");
        all.put("ESC clear", "\u001B[2J\u001B[H");
        all.put("ESC title", "\u001B]0;owned\u0007");
        all.put("forged line", "x\nadmin   admission-service   SubmitWorkload   workload w   Allowed");
        return all;
    }

    private static JsonNode readTree(byte[] json) {
        try {
            return new ObjectMapper().readTree(json);
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String pct(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    @Test
    void everyControlCharacterInPathQueryAndBodyIsRecordedEscaped() throws Exception {
        TestCredentials.Key teamA = SignedRestAssured.keyOnTopic("/workloads", "door-a", "team:door-a");
        Map<String, String> markers = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        int i = 0;
        for (Map.Entry<String, String> h : hostile().entrySet()) {
            String tag = "door" + (i++) + UUID.randomUUID().toString().substring(0, 8);
            int status = given().urlEncodingEnabled(false).get("/workloads/" + pct(tag + "p" + h.getValue())).statusCode();
            if (status != 403) problems.add(h.getKey() + " path: " + status);
            markers.put(h.getKey() + " path", tag + "p");
            status = given().urlEncodingEnabled(false).get("/workloads?team=" + pct(tag + "q" + h.getValue())).statusCode();
            if (status != 403) problems.add(h.getKey() + " query: " + status);
            markers.put(h.getKey() + " query", tag + "q");
            // Signed by team door-a, for team door-b: refused, and the workload id of the body is the target.
            String body = EventCodec.mapper().writeValueAsString(
                    Fixtures.workload(tag + "b" + h.getValue(), "door-b", 1, Instant.parse("2026-12-01T10:00:00Z")));
            status = SignedRestAssured.given(teamA).contentType("application/json").body(body).post("/workloads").statusCode();
            if (status < 400 || status >= 500) problems.add(h.getKey() + " body: " + status);
            markers.put(h.getKey() + " body", tag + "b");
        }
        assertThat(problems).isEmpty();
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        await().atMost(Duration.ofMinutes(1)).untilAsserted(() -> {
            // Read as plain JSON, not as AuditEvent (which escapes on construction): what the topic really holds.
            List<JsonNode> events = new ArrayList<>();
            CompactedTopicReader.readAll(client, List.of(TopicCatalog.Names.AUDIT), Duration.ofSeconds(30),
                    r -> events.add(readTree(r.value())));
            List<String> missing = new ArrayList<>();
            for (Map.Entry<String, String> m : markers.entrySet()) {
                List<JsonNode> found = events.stream().filter(e -> e.path("service").asText().equals("admission-service")
                        && (e.path("target").asText() + e.path("outcome").asText()).contains(m.getValue())).toList();
                if (found.isEmpty()) missing.add(m.getKey());
                for (JsonNode e : found) {
                    for (String f : new String[]{"principal", "operation", "target", "outcome"}) {
                        String v = e.path(f).asText(null);
                        if (!SafeText.isSafe(v)) missing.add(m.getKey() + " " + f + " unescaped: " + SafeText.escape(v));
                    }
                }
            }
            assertThat(missing).isEmpty();
        });
    }
}
