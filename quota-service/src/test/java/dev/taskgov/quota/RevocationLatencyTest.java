package dev.taskgov.quota;

import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.RevocationLatency;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long quota-service still accepts a key after an admin revoked it ({@code DELETE /credentials/{id}}): it
 * looks every key up in its own database, so the request after the revocation's answer is refused. Measured from
 * the start of the revocation request, printed, and bounded (docs/security.md).
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class RevocationLatencyTest {

    @TestHTTPResource("/")
    URL service;

    @Test
    void aRevokedKeyIsRefusedFromTheNextRequestOn() {
        TestCredentials.Key admin = QuotaTestKit.admin();
        URI credentials = URI.create("http://localhost:" + service.getPort() + "/credentials");
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            TestCredentials.Key key = TestCredentials.inDatabase("revoked-" + i, "viewer");
            assertThat(QuotaTestKit.wire(service, key, "SageMaker.ListComputeQuotas", "{}").statusCode()).isEqualTo(200);
            int[] after = {0};
            Duration d = RevocationLatency.measure(
                    () -> assertThat(TestCredentials.send(admin, "DELETE", URI.create(credentials + "/" + key.accessKeyId()), null)
                            .statusCode()).isEqualTo(200),
                    () -> {
                        after[0]++;
                        return QuotaTestKit.wire(service, key, "SageMaker.ListComputeQuotas", "{}").headers()
                                .firstValue("x-amzn-ErrorType").orElse("").equals("UnrecognizedClientException");
                    }, Duration.ofSeconds(10));
            assertThat(after[0]).as("requests sent after the revocation was answered, the last one refused").isEqualTo(1);
            millis.add(d.toMillis());
        }
        System.out.println("quota-service: revocation to refusal, ms: " + millis);
    }
}
