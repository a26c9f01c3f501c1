package dev.taskgov.client.support.auth;

import software.amazon.awssdk.http.ContentStreamProvider;
import software.amazon.awssdk.http.SdkHttpMethod;
import software.amazon.awssdk.http.SdkHttpRequest;
import software.amazon.awssdk.http.auth.aws.signer.AwsV4HttpSigner;
import software.amazon.awssdk.identity.spi.AwsCredentialsIdentity;

import java.net.URI;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Signs taskgov's own HTTP requests (the CLI, the tests) with SigV4 through the AWS SDK's signer, the way the SDK
 * signs its SageMaker calls: each request carries a fresh {@code amz-sdk-invocation-id}, so two identical calls in
 * one second are two signatures and neither looks like a replay.
 */
public final class RequestSigner {

    /** The signing name taskgov's own APIs (admission, topology, credentials, audit) are signed for. */
    public static final String SERVICE = "taskgov";
    public static final String REGION = "us-west-2";

    private final String accessKeyId;
    private final String secret;
    private final Clock clock;
    private final AwsV4HttpSigner signer = AwsV4HttpSigner.create();

    public RequestSigner(String accessKeyId, String secret, Clock clock) {
        this.accessKeyId = accessKeyId;
        this.secret = secret;
        this.clock = clock;
    }

    public RequestSigner(String accessKeyId, String secret) {
        this(accessKeyId, secret, Clock.systemUTC());
    }

    public String accessKeyId() {
        return accessKeyId;
    }

    public String secret() {
        return secret;
    }

    /** The headers to send with this request (the given ones, plus the date, the invocation id and Authorization). */
    public Map<String, String> sign(String method, URI uri, Map<String, String> headers, byte[] body) {
        SdkHttpRequest.Builder b = SdkHttpRequest.builder().uri(uri).method(SdkHttpMethod.fromValue(method));
        headers.forEach(b::putHeader);
        b.putHeader("amz-sdk-invocation-id", UUID.randomUUID().toString());
        var signed = signer.sign(r -> r.identity(AwsCredentialsIdentity.create(accessKeyId, secret))
                .request(b.build())
                .payload(ContentStreamProvider.fromByteArray(body == null ? new byte[0] : body))
                .putProperty(AwsV4HttpSigner.SERVICE_SIGNING_NAME, SERVICE)
                .putProperty(AwsV4HttpSigner.REGION_NAME, REGION)
                .putProperty(AwsV4HttpSigner.SIGNING_CLOCK, clock));
        Map<String, String> out = new LinkedHashMap<>();
        signed.request().headers().forEach((name, values) -> {
            if (!name.equalsIgnoreCase("Host")) { // java.net.http sets Host itself (a restricted header)
                out.put(name, String.join(",", values));
            }
        });
        return out;
    }

    /** Headers as java.net.http wants them: name, value, name, value. */
    public static String[] flatten(Map<String, String> headers) {
        return headers.entrySet().stream().flatMap(e -> List.of(e.getKey(), e.getValue()).stream()).toArray(String[]::new);
    }
}
