package dev.taskgov.service.support.auth;

import dev.taskgov.client.support.auth.RequestSigner;
import dev.taskgov.core.auth.Principal;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The verifier against requests signed by botocore (the aws CLI, captured) and by the AWS SDK for Java's signer. */
class SigV4VerifierTest {

    private static final Principal ADMIN = Principal.of("ops", List.of("admin"));

    /** What `aws sagemaker list-compute-quotas` (botocore 1.43.11) sent, signed with key AKIDEXAMPLE / secret "secret". */
    private static SignedRequest botocoreRequest() {
        Map<String, List<String>> h = new HashMap<>();
        h.put("Host", List.of("localhost:38999"));
        h.put("Accept-Encoding", List.of("identity"));
        h.put("X-Amz-Target", List.of("SageMaker.ListComputeQuotas"));
        h.put("Content-Type", List.of("application/x-amz-json-1.1"));
        h.put("User-Agent", List.of("aws-cli/1.45.11"));
        h.put("X-Amz-Date", List.of("20261201T181311Z"));
        h.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/us-west-2/sagemaker/aws4_request, "
                + "SignedHeaders=content-type;host;x-amz-date;x-amz-target, "
                + "Signature=af4f204601e9f4eedf9528808f13bda214c61e8abeed15be0a4c2b2748485715"));
        h.put("amz-sdk-invocation-id", List.of("4291fc4b-92ae-48a4-b241-8399104c277b"));
        h.put("Content-Length", List.of("2"));
        return new SignedRequest("POST", "/", null, h, "{}".getBytes(StandardCharsets.UTF_8));
    }

    private static SigV4Verifier verifier(String keyId, String secret, Instant now) {
        return new SigV4Verifier(id -> id.equals(keyId) ? Optional.of(new CredentialLookup.Found(ADMIN, secret))
                : Optional.empty(), Clock.fixed(now, ZoneOffset.UTC));
    }

    private static final Instant CAPTURED_AT = Instant.parse("2026-12-01T18:13:11Z");

    @Test
    void aReadSignedByTheAwsCliIsAcceptedEachTimeAndAChangesReplayIsRefused() {
        SigV4Verifier cli = verifier("AKIDEXAMPLE", "secret", CAPTURED_AT.plusSeconds(30));
        assertThat(cli.verify(botocoreRequest())).isEqualTo(ADMIN);
        assertThat(cli.verify(botocoreRequest())).as("the same list-compute-quotas again within its second").isEqualTo(ADMIN);

        SigV4Verifier sdk = verifier("TGAKTEST", "s3cr3t", NOW);
        SignedRequest delete = sdkSigned(NOW, Map.of("X-Amz-Target", "SageMaker.DeleteComputeQuota"), Map.of());
        assertThat(sdk.verify(delete)).isEqualTo(ADMIN);
        assertThatThrownBy(() -> sdk.verify(delete)).isInstanceOf(AuthFailure.class)
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                .hasMessageContaining("already been used");
    }

    @Test
    void onlyGetHeadAndDescribeListOrGetOperationsAreReads() {
        Map<String, Boolean> changes = new java.util.LinkedHashMap<>();
        changes.put("GET", false);
        changes.put("HEAD", false);
        changes.put("POST", true);
        changes.put("PUT", true);
        changes.put("DELETE", true);
        changes.put("POST SageMaker.DescribeComputeQuota", false);
        changes.put("POST SageMaker.ListClusterSchedulerConfigs", false);
        changes.put("POST Ec2.GetTopology", false);
        changes.put("POST SageMaker.CreateComputeQuota", true);
        changes.put("POST SageMaker.UpdateComputeQuota", true);
        changes.put("POST SageMaker.DeleteComputeQuota", true);
        changes.put("POST SageMaker.Listed", true);
        Map<String, Boolean> got = new java.util.LinkedHashMap<>();
        changes.keySet().forEach(request -> {
            String[] parts = request.split(" ");
            Map<String, List<String>> h = parts.length > 1 ? Map.of("X-Amz-Target", List.of(parts[1])) : Map.of();
            got.put(request, new SignedRequest(parts[0], "/", null, h, null).changesState());
        });
        assertThat(got).isEqualTo(changes);
    }

    @Test
    void aWrongSecretAnUnknownKeyAndASkewedClockAreRefusedWithAwssErrorTypes() {
        assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "other", CAPTURED_AT).verify(botocoreRequest()))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                .hasMessageContaining("does not match");
        assertThatThrownBy(() -> verifier("SOMEONEELSE", "secret", CAPTURED_AT).verify(botocoreRequest()))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.UNRECOGNIZED_CLIENT));
        assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT.plusSeconds(301)).verify(botocoreRequest()))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                .hasMessageContaining("Signature expired");
        assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT.minusSeconds(301)).verify(botocoreRequest()))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                .hasMessageContaining("not yet current");
    }

    @Test
    void aRequestWithoutSignatureOrWithPartsMissingIsRefused() {
        SignedRequest r = botocoreRequest();
        Map<String, List<String>> noAuth = new HashMap<>(r.headers());
        noAuth.remove("Authorization");
        assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT)
                .verify(new SignedRequest("POST", "/", null, noAuth, r.body())))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.MISSING_TOKEN))
                .satisfies(e -> assertThat(((AuthFailure) e).status()).isEqualTo(403));
        Map<String, List<String>> partial = new HashMap<>(r.headers());
        partial.put("Authorization", List.of("AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/us-west-2/sagemaker/aws4_request"));
        assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT)
                .verify(new SignedRequest("POST", "/", null, partial, r.body())))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INCOMPLETE_SIGNATURE))
                .hasMessageContaining("SignedHeaders");
    }

    @Test
    void requestsSignedByTheSdksSignerVerifyWithTheirPathQueryAndBodyAndAChangedBodyDoesNot() {
        Instant now = Instant.parse("2026-12-01T10:00:00Z");
        RequestSigner signer = new RequestSigner("TGAKTEST", "s3cr3t", Clock.fixed(now, ZoneOffset.UTC));
        SigV4Verifier v = verifier("TGAKTEST", "s3cr3t", now);
        URI uri = URI.create("http://127.0.0.1:8083/workloads:dry-run?team=team-a&x=a%20b");
        byte[] body = "{\"workloadId\":\"w\"}".getBytes(StandardCharsets.UTF_8);
        Map<String, List<String>> headers = new HashMap<>();
        signer.sign("POST", uri, Map.of("Content-Type", "application/json"), body).forEach((k, val) -> headers.put(k, List.of(val)));
        headers.put("Host", List.of("127.0.0.1:8083"));
        assertThat(v.verify(new SignedRequest("POST", uri.getRawPath(), uri.getRawQuery(), headers, body))).isEqualTo(ADMIN);

        Map<String, List<String>> again = new HashMap<>();
        signer.sign("POST", uri, Map.of("Content-Type", "application/json"), body).forEach((k, val) -> again.put(k, List.of(val)));
        again.put("Host", List.of("127.0.0.1:8083"));
        byte[] changed = "{\"workloadId\":\"x\"}".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> v.verify(new SignedRequest("POST", uri.getRawPath(), uri.getRawQuery(), again, changed)))
                .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE));
    }

    /** A request the SDK's signer signed for {@code now}, with {@code extra} headers added unsigned afterwards. */
    private static SignedRequest sdkSigned(Instant now, Map<String, String> signedHeaders, Map<String, String> extra) {
        RequestSigner signer = new RequestSigner("TGAKTEST", "s3cr3t", Clock.fixed(now, ZoneOffset.UTC));
        URI uri = URI.create("http://127.0.0.1:8081/");
        byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
        Map<String, List<String>> headers = new HashMap<>();
        signer.sign("POST", uri, signedHeaders, body).forEach((k, val) -> headers.put(k, List.of(val)));
        headers.put("Host", List.of("127.0.0.1:8081"));
        extra.forEach((k, val) -> headers.put(k, List.of(val)));
        return new SignedRequest("POST", "/", null, headers, body);
    }

    private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

    @Test
    void aTargetContentTypeOrAnyXAmzHeaderSentUnsignedIsRefusedNamingIt() {
        Map<String, String> signedTarget = Map.of("X-Amz-Target", "SageMaker.ListComputeQuotas");
        assertThat(verifier("TGAKTEST", "s3cr3t", NOW).verify(sdkSigned(NOW, signedTarget, Map.of()))).isEqualTo(ADMIN);
        for (Map.Entry<String, String> unsigned : Map.of("X-Amz-Target", "SageMaker.DeleteComputeQuota",
                "Content-Type", "application/x-amz-json-1.1", "X-Amz-Meta-Anything", "x").entrySet()) {
            assertThatThrownBy(() -> verifier("TGAKTEST", "s3cr3t", NOW).verify(sdkSigned(NOW, Map.of(), Map.of(unsigned.getKey(), unsigned.getValue()))))
                    .as(unsigned.getKey())
                    .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                    .hasMessageContaining("headers present in the request which were not signed: " + unsigned.getKey().toLowerCase(java.util.Locale.ROOT));
        }
        // a header outside those rules (User-Agent, which botocore does not sign) may stay unsigned
        assertThat(verifier("TGAKTEST", "s3cr3t", NOW).verify(sdkSigned(NOW, signedTarget, Map.of("User-Agent", "x")))).isEqualTo(ADMIN);
    }

    @Test
    void hostAndTheDateMustBeSigned() {
        SignedRequest r = botocoreRequest();
        for (String signedHeaders : List.of("content-type;x-amz-date;x-amz-target", "content-type;host;x-amz-target")) {
            Map<String, List<String>> h = new HashMap<>(r.headers());
            h.put("Authorization", List.of(r.header("Authorization").replace("content-type;host;x-amz-date;x-amz-target", signedHeaders)));
            assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT).verify(new SignedRequest("POST", "/", null, h, r.body())))
                    .as(signedHeaders)
                    .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                    .hasMessageContaining(signedHeaders.contains("host") ? "'X-Amz-Date' must be a 'SignedHeader'"
                            : "'Host' or ':authority' must be a 'SignedHeader'");
        }
    }

    @Test
    void theCredentialScopeDateMustBeTheRequestDateExactly() {
        for (String cut : List.of("2026", "", "202612", "20261202")) {
            SignedRequest r = botocoreRequest();
            Map<String, List<String>> h = new HashMap<>(r.headers());
            h.put("Authorization", List.of(r.header("Authorization").replace("/20261201/", "/" + cut + "/")));
            assertThatThrownBy(() -> verifier("AKIDEXAMPLE", "secret", CAPTURED_AT).verify(new SignedRequest("POST", "/", null, h, r.body())))
                    .as("scope date '" + cut + "'")
                    .satisfies(e -> assertThat(((AuthFailure) e).type()).isEqualTo(AuthFailure.INVALID_SIGNATURE))
                    .hasMessageContaining("Date in Credential scope does not match");
        }
    }
}
