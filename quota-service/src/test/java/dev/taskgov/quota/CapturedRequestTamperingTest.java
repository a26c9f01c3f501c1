package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.testsupport.CapturedRequest;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingStrategy;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests signed with the admin's key and then altered on the way, as someone holding a captured request would,
 * sent byte for byte to the real SageMaker endpoint: each alteration is refused with AWS's
 * {@code InvalidSignatureException} and changes nothing, while the same request unaltered and fully signed is
 * served. Signed by hand ({@link CapturedRequest}), so that the headers left out of {@code SignedHeaders} are the
 * test's choice.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class CapturedRequestTamperingTest {

    private static final String P5 = "ml.p5.48xlarge";
    private static final List<String> ALL_SIGNED = List.of("content-type", "host", "x-amz-date", "x-amz-target");

    @TestHTTPResource("/")
    URL service;

    private static boolean nodesPublished;
    private TestCredentials.Key admin;

    @BeforeEach
    void setUp() {
        if (!nodesPublished) {
            QuotaTestKit.publishNodes(P5, 8, 8, 192, 2048);
            nodesPublished = true;
        }
        org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(60)).until(() -> QuotaTestKit.sharedCapacity()
                .getOrDefault(P5, dev.taskgov.core.resources.Resources.ZERO).accelerators() >= 64);
        admin = QuotaTestKit.admin();
    }

    private String host() {
        return "localhost:" + service.getPort();
    }

    private CapturedRequest sign(String operation, byte[] body, List<String> signed) {
        return CapturedRequest.signed("POST", "/", body, admin.accessKeyId(), admin.secret(), "us-west-2", "sagemaker",
                Instant.now(), signed, "Host", host(), "X-Amz-Target", "SageMaker." + operation,
                "Content-Type", "application/x-amz-json-1.1");
    }

    private String newQuota() {
        try (SageMakerClient sdk = QuotaTestKit.sageMaker(service, admin)) {
            String t = team("capt");
            return sdk.createComputeQuota(r -> r.name(t + "-q").clusterArn(newClusterArn())
                    .computeQuotaConfig(q -> q.computeQuotaResources(ComputeQuotaResourceConfig.builder().instanceType(P5).accelerators(1).build())
                            .resourceSharingConfig(s -> s.strategy(ResourceSharingStrategy.LEND_AND_BORROW)))
                    .computeQuotaTarget(x -> x.teamName(t))).computeQuotaId();
        }
    }

    private boolean exists(String quotaId) {
        try (SageMakerClient sdk = QuotaTestKit.sageMaker(service, admin)) {
            return !"Deleted".equals(sdk.describeComputeQuota(r -> r.computeQuotaId(quotaId)).statusAsString());
        } catch (software.amazon.awssdk.services.sagemaker.model.ResourceNotFoundException e) {
            return false;
        }
    }

    private static void assertRefused(String what, CapturedRequest.Answer a, String messagePart) throws Exception {
        assertThat(a.status()).as(what + ": " + a.body()).isEqualTo(400);
        JsonNode error = JSON.readTree(a.body());
        assertThat(error.path("__type").asText()).as(what).isEqualTo("InvalidSignatureException");
        assertThat(error.path("message").asText()).as(what).contains(messagePart);
    }

    @Test
    void aDescribeSignedWithoutItsTargetCannotBeTurnedIntoADelete() throws Exception {
        String quota = newQuota();
        byte[] body = ("{\"ComputeQuotaId\":\"" + quota + "\"}").getBytes(StandardCharsets.UTF_8);
        CapturedRequest captured = sign("DescribeComputeQuota", body, List.of("host", "x-amz-date"));
        assertRefused("the describe itself, its target unsigned", captured.send(service.getPort()), "x-amz-target");

        CapturedRequest swapped = sign("DescribeComputeQuota", body, List.of("host", "x-amz-date"))
                .with("X-Amz-Target", "SageMaker.DeleteComputeQuota");
        assertRefused("the target swapped to a delete", swapped.send(service.getPort()), "x-amz-target");
        assertThat(exists(quota)).as("the quota was not deleted").isTrue();

        assertThat(sign("DescribeComputeQuota", body, ALL_SIGNED).send(service.getPort()).status())
                .as("the same describe, fully signed").isEqualTo(200);
    }

    @Test
    void aRequestThatDoesNotSignItsHostIsRefusedWhereverItIsSent() throws Exception {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        CapturedRequest unsignedHost = sign("ListComputeQuotas", body, List.of("content-type", "x-amz-date", "x-amz-target"))
                .with("Host", "quota.other-deployment.example:8081");
        assertRefused("Host rewritten, host unsigned", unsignedHost.send(service.getPort()), "'Host' or ':authority' must be a 'SignedHeader'");
        CapturedRequest rewritten = sign("ListComputeQuotas", body, ALL_SIGNED).with("Host", "127.0.0.1:" + service.getPort());
        assertRefused("Host rewritten, host signed", rewritten.send(service.getPort()), "does not match");
    }

    @Test
    void aCredentialScopeDateCutShortOrEmptiedIsRefused() throws Exception {
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        for (String cut : List.of("2026", "", Instant.now().toString().substring(0, 7).replace("-", ""))) {
            CapturedRequest r = sign("ListComputeQuotas", body, ALL_SIGNED);
            String date = r.header("X-Amz-Date").substring(0, 8);
            r.with("Authorization", r.header("Authorization").replace("/" + date + "/", "/" + cut + "/"));
            assertRefused("scope date '" + cut + "'", r.send(service.getPort()), "Date in Credential scope does not match");
        }
        assertThat(sign("ListComputeQuotas", body, ALL_SIGNED).send(service.getPort()).status()).isEqualTo(200);
    }

    @Test
    void thePayloadHashIsOverTheBytesSentNotOverTheirDecoding() throws Exception {
        byte[] signedBody = "{\"NameContains\":\"\uFFFD\"}".getBytes(StandardCharsets.UTF_8);
        byte[] sentBody = new byte[signedBody.length - 2];
        String prefix = "{\"NameContains\":\"";
        System.arraycopy(signedBody, 0, sentBody, 0, prefix.length());
        sentBody[prefix.length()] = (byte) 0xFF; // one raw byte where U+FFFD's three were signed
        System.arraycopy(signedBody, prefix.length() + 3, sentBody, prefix.length() + 1, 2);
        CapturedRequest r = sign("ListComputeQuotas", signedBody, ALL_SIGNED).withBody(sentBody);
        assertRefused("0xFF sent where U+FFFD was signed", r.send(service.getPort()), "does not match");

        assertThat(sign("ListComputeQuotas", signedBody, ALL_SIGNED).send(service.getPort()).status())
                .as("the body that was signed").isEqualTo(200);
        CapturedRequest.Answer raw = sign("ListComputeQuotas", sentBody, ALL_SIGNED).send(service.getPort());
        assertThat(raw.body()).as("a raw 0xFF body signed as such passes the signature").doesNotContain("InvalidSignatureException");
    }

    /**
     * The real {@code curl --aws-sigv4} (skipped where none is installed): it signs the headers given with
     * {@code -H}, so a SageMaker call with its target and content type is served; the form content type curl adds
     * by itself for {@code -d} it does not sign, and that request is refused naming the header.
     */
    @Test
    void curlAwsSigv4CallsTheSagemakerApiWithItsHeadersSigned() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(curl("--version").startsWith("curl "), "curl is not installed");
        String user = admin.accessKeyId() + ":" + admin.secret();
        String url = "http://localhost:" + service.getPort() + "/";
        // a body of its own: an identical request signed in the same second (another test's) would be a replay
        String body = "{\"NameContains\":\"curl-" + java.util.UUID.randomUUID().toString().substring(0, 8) + "\"}";
        String served = curl("-s", "-w", "\n%{http_code}", "--aws-sigv4", "aws:amz:us-west-2:sagemaker", "--user", user,
                "-H", "X-Amz-Target: SageMaker.ListComputeQuotas", "-H", "Content-Type: application/x-amz-json-1.1", "-d", body, url);
        assertThat(served).as(served).endsWith("\n200").contains("ComputeQuotaSummaries");
        String refused = curl("-s", "-w", "\n%{http_code}", "--aws-sigv4", "aws:amz:us-west-2:sagemaker", "--user", user,
                "-H", "X-Amz-Target: SageMaker.ListComputeQuotas", "-d", body, url);
        assertThat(refused).as(refused).endsWith("\n400").contains("InvalidSignatureException",
                "headers present in the request which were not signed: content-type");
    }

    private static String curl(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>(List.of("curl"));
        command.addAll(List.of(args));
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (java.io.IOException e) {
            return "";
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        return out;
    }
}
