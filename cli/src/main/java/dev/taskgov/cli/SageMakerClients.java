package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.function.Function;

/** The AWS SDK's SageMaker client pointed at quota-service, and its failures as {@link CliException}s. */
public final class SageMakerClients {

    private static final int CONNECT_TIMEOUT_MILLIS = 5_000;
    private static final int READ_TIMEOUT_MILLIS = 20_000;

    private SageMakerClients() {
    }

    static SageMakerClient client(URI endpoint, ProfileFile.Credentials credentials) {
        return SageMakerClient.builder()
                .endpointOverride(endpoint)
                // quota-service verifies the SigV4 signature the SDK makes with the profile's key.
                .region(Region.of(System.getenv().getOrDefault("AWS_REGION", "us-west-2")))
                .credentialsProvider(StaticCredentialsProvider.create(
                        AwsBasicCredentials.create(credentials.accessKeyId(), credentials.secret())))
                .httpClient(UrlConnectionHttpClient.create(SageMakerClients::connect))
                .overrideConfiguration(c -> c.retryStrategy(AwsRetryStrategy.doNotRetry()))
                .build();
    }

    /**
     * The SDK's URLConnection client with the JDK's own connections. Built with its defaults, that client makes a TLS
     * context up front, reading and parsing the JDK's trust store, even for the local runtime's plain-HTTP endpoint:
     * about 70 ms of CPU on every quota command (docs/benchmarks.md, "CLI start time"). An https endpoint still gets
     * TLS, the JDK's default (the same trust store and key store settings), when it is first connected to.
     */
    private static HttpURLConnection connect(URI uri) {
        try {
            HttpURLConnection c = (HttpURLConnection) uri.toURL().openConnection();
            c.setConnectTimeout(CONNECT_TIMEOUT_MILLIS);
            c.setReadTimeout(READ_TIMEOUT_MILLIS);
            return c;
        } catch (IOException e) { // openConnection connects nothing yet; connecting fails later, where the SDK reports it
            throw new UncheckedIOException(e);
        }
    }

    /** Runs one call; a refusal keeps the service's error type and message. */
    public static <T> T call(Endpoints endpoints, Function<SageMakerClient, T> call) {
        URI endpoint = endpoints.quota();
        try (SageMakerClient client = client(endpoint, endpoints.credentials())) {
            return call.apply(client);
        } catch (AwsServiceException e) {
            String type = e.awsErrorDetails() == null ? "Error" : e.awsErrorDetails().errorCode();
            String message = e.awsErrorDetails() == null ? e.getMessage() : e.awsErrorDetails().errorMessage();
            int exit = e.statusCode() == 400 ? CliException.INVALID_INPUT : CliException.FAILED;
            throw new CliException(exit, type + ": " + message, e);
        } catch (SdkClientException e) {
            throw new CliException(CliException.FAILED, "cannot reach quota-service at " + endpoint + " (" + e.getMessage()
                    + "); is it running (deploy/local/taskgov-local up), or set --quota-url / TASKGOV_QUOTA_URL", e);
        }
    }
}
