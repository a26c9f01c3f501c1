package dev.taskgov.admission;

import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.RevocationLatency;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How long admission-service still accepts a key after quota-service revoked it (a tombstone on the credentials
 * topic, which this service follows): measured over several revocations, printed, and bounded (docs/security.md).
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class RevocationLatencyTest {

    @Test
    void aRevokedKeyIsRefusedWithinAFractionOfASecond() {
        RevocationLatency.connect();
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            TestCredentials.Key key = SignedRestAssured.keyOnTopic("/clusters", "revoked-" + i, "viewer");
            Duration d = RevocationLatency.measure(() -> RevocationLatency.tombstoneOnTopic(key),
                    () -> "UnrecognizedClientException".equals(SignedRestAssured.given(key).get("/clusters").getHeader("x-amzn-ErrorType")),
                    Duration.ofSeconds(10));
            millis.add(d.toMillis());
        }
        System.out.println("admission-service: revocation to refusal, ms: " + millis);
        assertThat(millis).allMatch(ms -> ms < 2_000);
    }
}
