package dev.taskgov.topology;

import dev.taskgov.client.support.auth.RequestSigner;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The access matrix (docs/security.md) for topology-service's one endpoint, {@code GET /topology} (cluster-wide: admins and viewers):
 * admin, own team, other team, viewer, unknown key, wrong secret, no signature, skewed clock, and the same signed read sent
 * twice (accepted: a read repeats nothing).
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class TopologyAccessMatrixTest {

    @TestHTTPResource("/topology")
    URL topology;

    @Test
    void getTopologyForEveryCaller() {
        TestCredentials.Key admin = SignedRestAssured.keyOnTopic("/topology", "tm-admin", "admin");
        Map<String, TestCredentials.Key> keys = Map.of(
                "admin", admin,
                "viewer", SignedRestAssured.keyOnTopic("/topology", "tm-viewer", "viewer"),
                "own team", SignedRestAssured.keyOnTopic("/topology", "tm-a", "team:tm-a"),
                "other team", SignedRestAssured.keyOnTopic("/topology", "tm-b", "team:tm-b"),
                "unknown key", TestCredentials.newKey("nobody", "admin"),
                "wrong secret", new TestCredentials.Key(admin.accessKeyId(), admin.secret() + "x", "tm-admin", List.of("admin")));
        Map<String, String> expected = Map.of("admin", "allowed", "viewer", "allowed",
                "own team", "AccessDeniedException", "other team", "AccessDeniedException",
                "unknown key", "UnrecognizedClientException", "wrong secret", "InvalidSignatureException");
        keys.forEach((who, key) -> {
            HttpResponse<String> r = send(request(new RequestSigner(key.accessKeyId(), key.secret())));
            String want = expected.get(who);
            if (want.equals("allowed")) {
                assertThat(r.statusCode()).as(who + ": " + r.body()).isEqualTo(200);
            } else {
                assertThat(r.statusCode()).as(who + ": " + r.body()).isEqualTo(want.equals("AccessDeniedException") ? 403 : 400);
                assertThat(r.headers().firstValue("x-amzn-ErrorType")).as(who).hasValue(want);
            }
        });
        HttpResponse<String> denied = send(request(new RequestSigner(keys.get("own team").accessKeyId(), keys.get("own team").secret())));
        assertThat(denied.body()).contains("only an admin or a viewer reads it");

        HttpResponse<String> unsigned = send(request(null));
        assertThat(unsigned.statusCode()).isEqualTo(403);
        assertThat(unsigned.headers().firstValue("x-amzn-ErrorType")).hasValue("MissingAuthenticationTokenException");
        for (Duration skew : List.of(Duration.ofMinutes(-6), Duration.ofMinutes(6))) {
            HttpResponse<String> r = send(request(new RequestSigner(admin.accessKeyId(), admin.secret(), Clock.offset(Clock.systemUTC(), skew))));
            assertThat(r.headers().firstValue("x-amzn-ErrorType")).as("skew " + skew).hasValue("InvalidSignatureException");
        }
        HttpRequest once = request(new RequestSigner(admin.accessKeyId(), admin.secret()));
        assertThat(send(once).statusCode()).isEqualTo(200);
        HttpResponse<String> again = send(once);
        assertThat(again.statusCode()).as(again.body()).isEqualTo(200);
    }

    private HttpRequest request(RequestSigner signer) {
        return TestCredentials.request(signer, "GET", URI.create(topology.toString()), null);
    }

    private static HttpResponse<String> send(HttpRequest request) {
        return TestCredentials.send(request);
    }
}
