package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.client.support.auth.RequestSigner;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The access matrix (docs/security.md) for admission-service's HTTP API: every endpoint x admin, own team, other team, viewer, unknown
 * key, wrong secret, no signature, skewed clock and replay (refused for a change, answered again for a read), each allowed or refused with the exact error; a team key
 * asking for another team's workload gets 404, as for an id nobody submitted, and none of that team's data.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class ApiAccessMatrixTest {

    private static final String OWN = "mx-own";
    private static final String OTHER = "mx-other";
    private static final AtomicInteger SEQ = new AtomicInteger();
    private static Map<String, TestCredentials.Key> keys;
    private static String ownWorkload;

    @TestHTTPResource("/")
    URL service;

    @Inject
    AdmissionRuntime runtime;

    @BeforeEach
    void setUp() {
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.cluster(2, Map.of(OWN, 16L, OTHER, 16L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(OTHER))).orElse(false));
        if (keys == null) {
            keys = new LinkedHashMap<>();
            keys.put("admin", SignedRestAssured.keyOnTopic("/workloads", "mx-admin", "admin"));
            keys.put("own team", SignedRestAssured.keyOnTopic("/workloads", OWN, "team:" + OWN));
            keys.put("other team", SignedRestAssured.keyOnTopic("/workloads", OTHER, "team:" + OTHER));
            keys.put("viewer", SignedRestAssured.keyOnTopic("/workloads", "mx-viewer", "viewer"));
            keys.put("unknown key", TestCredentials.newKey("nobody", "admin"));
            TestCredentials.Key admin = keys.get("admin");
            keys.put("wrong secret", new TestCredentials.Key(admin.accessKeyId(), admin.secret() + "x", "mx-admin", admin.roles()));
            ownWorkload = "mx-own-seed";
            HttpResponse<String> r = call(new RequestSigner(keys.get("own team").accessKeyId(), keys.get("own team").secret()),
                    "POST", "/workloads", submission(ownWorkload, OWN));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
            await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload(ownWorkload)).isPresent());
        }
    }

    private static String submission(String id, String team) {
        return new String(EventCodec.bytes(Fixtures.workload(id, team, 1, Instant.parse("2026-12-01T10:00:00Z"))), StandardCharsets.UTF_8);
    }

    /** The endpoints: name -> (method, path, body for this call), always about the own team's data. */
    private static Map<String, String[]> endpoints() {
        Map<String, String[]> e = new LinkedHashMap<>();
        e.put("DescribeWorkload", new String[] {"GET", "/workloads/" + ownWorkload, null});
        e.put("ListWorkloads?team", new String[] {"GET", "/workloads?team=" + OWN, null});
        e.put("ListPendingWorkloads", new String[] {"GET", "/teams/" + OWN + "/pending", null});
        e.put("SubmitWorkload", new String[] {"POST", "/workloads", submission("mx-sub-" + SEQ.incrementAndGet(), OWN)});
        e.put("DryRunWorkload", new String[] {"POST", "/workloads:dry-run", submission("mx-dry-" + SEQ.incrementAndGet(), OWN)});
        e.put("ListWorkloads", new String[] {"GET", "/workloads", null});
        e.put("ListClusters", new String[] {"GET", "/clusters", null});
        e.put("ListTeams", new String[] {"GET", "/teams", null});
        // Kueue's visibility API names the team by its ClusterQueue, or by its namespace and LocalQueue
        String kueue = "/apis/visibility.kueue.x-k8s.io/v1beta1";
        e.put("KueueClusterQueuePending", new String[] {"GET", kueue + "/clusterqueues/hyperpod-ns-" + OWN + "-clusterqueue/pendingworkloads", null});
        e.put("KueueLocalQueuePending", new String[] {"GET", kueue + "/namespaces/hyperpod-ns-" + OWN + "/localqueues/hyperpod-ns-"
                + OWN + "-localqueue/pendingworkloads", null});
        return e;
    }

    /** null = allowed; else the AWS error type. */
    private static String expected(String who, String endpoint) {
        boolean write = endpoint.equals("SubmitWorkload") || endpoint.equals("DryRunWorkload");
        return switch (who) {
            case "admin", "own team" -> null;
            case "viewer" -> write ? "AccessDeniedException" : null;
            // every key lists (its share of) the workloads and the teams, and the clusters' totals
            // another team's workload id reads as an unknown one: 404, neither its existence nor its owner shows
            case "other team" -> endpoint.equals("ListWorkloads") || endpoint.equals("ListClusters") || endpoint.equals("ListTeams")
                    ? null : endpoint.equals("DescribeWorkload") ? NOT_FOUND : "AccessDeniedException";
            case "unknown key" -> "UnrecognizedClientException";
            case "wrong secret" -> "InvalidSignatureException";
            default -> throw new IllegalArgumentException(who);
        };
    }

    /** The answer for an id that is unknown to the caller: 404 with the service's own error shape, no AWS error type. */
    private static final String NOT_FOUND = "NotFound";

    private static int statusOf(String type) {
        return switch (type) {
            case NOT_FOUND -> 404;
            case "AccessDeniedException", "MissingAuthenticationTokenException" -> 403;
            default -> 400;
        };
    }

    @Test
    void everyEndpointForEveryKeyHolder() throws Exception {
        List<String> mismatches = new ArrayList<>();
        for (Map.Entry<String, TestCredentials.Key> who : keys.entrySet()) {
            RequestSigner signer = new RequestSigner(who.getValue().accessKeyId(), who.getValue().secret());
            for (Map.Entry<String, String[]> e : endpoints().entrySet()) {
                HttpResponse<String> r = call(signer, e.getValue()[0], e.getValue()[1], e.getValue()[2]);
                String want = expected(who.getKey(), e.getKey());
                String got = r.headers().firstValue("x-amzn-ErrorType").orElse(null);
                boolean matches = want == null ? r.statusCode() / 100 == 2
                        : want.equals(NOT_FOUND) ? got == null && r.statusCode() == 404
                        : want.equals(got) && r.statusCode() == statusOf(want);
                if (!matches) {
                    mismatches.add(who.getKey() + " " + e.getKey() + ": expected " + (want == null ? "allowed" : want)
                            + ", got " + r.statusCode() + " " + r.body());
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void anotherTeamsKeyReadsItsIdsAsUnknownIsRefusedItsWritesSayingWhyAndGetsNoneOfTheData() throws Exception {
        TestCredentials.Key other = keys.get("other team");
        RequestSigner signer = new RequestSigner(other.accessKeyId(), other.secret());
        HttpResponse<String> describe = call(signer, "GET", "/workloads/" + ownWorkload, null);
        assertThat(describe.statusCode()).isEqualTo(404);
        JsonNode body = EventCodec.mapper().readTree(describe.body());
        assertThat(body.path("message").asText()).isEqualTo("no workload with id '" + ownWorkload + "'");
        assertThat(describe.body()).doesNotContain("placement", "history", OWN + "'", "belongs");
        HttpResponse<String> submit = call(signer, "POST", "/workloads", submission("mx-forged", OWN));
        assertThat(submit.statusCode()).isEqualTo(403);
        assertThat(submit.body()).contains("only team '" + OWN + "' (or an admin) submits for team '" + OWN + "'");
        assertThat(runtime.reads().flatMap(p -> p.workload("mx-forged"))).isEmpty();
        // without ?team= a team key lists its own team's workloads only
        JsonNode all = EventCodec.mapper().readTree(call(signer, "GET", "/workloads", null).body());
        all.forEach(w -> assertThat(w.path("team").asText()).isEqualTo(OTHER));
        JsonNode own = EventCodec.mapper().readTree(call(new RequestSigner(keys.get("own team").accessKeyId(),
                keys.get("own team").secret()), "GET", "/workloads", null).body());
        assertThat(own.findValuesAsText("workloadId")).contains(ownWorkload);
        // GET /teams shows a team key its own team's quota and use only
        JsonNode teams = EventCodec.mapper().readTree(call(signer, "GET", "/teams", null).body());
        assertThat(teams.path("teams").findValuesAsText("team")).containsExactly(OTHER);
        JsonNode allTeams = EventCodec.mapper().readTree(call(new RequestSigner(keys.get("viewer").accessKeyId(),
                keys.get("viewer").secret()), "GET", "/teams", null).body());
        assertThat(allTeams.path("teams").findValuesAsText("team")).contains(OWN, OTHER);
    }

    @Test
    void noSignatureASkewedClockAndAReplayedChangeAreRefusedOnEveryEndpoint() {
        TestCredentials.Key admin = keys.get("admin");
        for (Map.Entry<String, String[]> e : endpoints().entrySet()) {
            String[] c = e.getValue();
            assertError(e.getKey() + " unsigned", call(null, c[0], c[1], c[2]), 403, "MissingAuthenticationTokenException");
            for (Duration skew : List.of(Duration.ofMinutes(-6), Duration.ofMinutes(6))) {
                RequestSigner skewed = new RequestSigner(admin.accessKeyId(), admin.secret(), Clock.offset(Clock.systemUTC(), skew));
                assertError(e.getKey() + " skewed " + skew, call(skewed, c[0], c[1], c[2]), 400, "InvalidSignatureException");
            }
            HttpRequest once = request(new RequestSigner(admin.accessKeyId(), admin.secret()), c[0], c[1], c[2]);
            assertThat(send(once).statusCode() / 100).as(e.getKey() + " first").isEqualTo(2);
            HttpResponse<String> replay = send(once);
            if (c[0].equals("GET")) {
                // a read sent again repeats nothing and is answered again, as AWS does
                assertThat(replay.statusCode() / 100).as(e.getKey() + " again: " + replay.body()).isEqualTo(2);
            } else {
                assertError(e.getKey() + " replay", replay, 400, "InvalidSignatureException");
                assertThat(replay.body()).contains("already been used");
            }
        }
    }

    private HttpResponse<String> call(RequestSigner signer, String method, String path, String body) {
        return send(request(signer, method, path, body));
    }

    private HttpRequest request(RequestSigner signer, String method, String path, String body) {
        URI uri = URI.create("http://localhost:" + service.getPort() + path);
        return body == null ? TestCredentials.request(signer, method, uri, null)
                : TestCredentials.request(signer, method, uri, body, "Content-Type", "application/json");
    }

    private static HttpResponse<String> send(HttpRequest request) {
        return TestCredentials.send(request);
    }

    private static void assertError(String what, HttpResponse<String> r, int status, String type) {
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(status);
        assertThat(r.headers().firstValue("x-amzn-ErrorType")).as(what).hasValue(type);
    }
}
