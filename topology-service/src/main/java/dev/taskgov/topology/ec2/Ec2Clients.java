package dev.taskgov.topology.ec2;

import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.AwsCredentialsProvider;
import software.amazon.awssdk.auth.credentials.DefaultCredentialsProvider;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.awscore.retry.AwsRetryStrategy;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.retries.api.BackoffStrategy;
import software.amazon.awssdk.services.ec2.Ec2Client;

import java.net.URI;
import java.time.Duration;
import java.util.Optional;

/** Builds the EC2 client: region, optional endpoint, credentials, and the SDK's exponential retry on throttling. */
public final class Ec2Clients {

    private Ec2Clients() {
    }

    /**
     * @param maxAttempts   attempts per request (1 = no retry); throttling ({@code RequestLimitExceeded},
     *                      {@code Throttling}) and 5xx are retried with exponential backoff and jitter
     * @param baseDelay     first retry delay
     * @param maxDelay      longest retry delay
     */
    public static Ec2Client create(String region, Optional<URI> endpoint, Optional<String> accessKeyId,
                                   Optional<String> secretAccessKey, int maxAttempts, Duration baseDelay,
                                   Duration maxDelay, Duration callTimeout) {
        AwsCredentialsProvider credentials = accessKeyId.isPresent() && secretAccessKey.isPresent()
                ? StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKeyId.get(), secretAccessKey.get()))
                : DefaultCredentialsProvider.builder().build();
        var retry = AwsRetryStrategy.standardRetryStrategy().toBuilder()
                .maxAttempts(maxAttempts)
                .backoffStrategy(BackoffStrategy.exponentialDelay(baseDelay, maxDelay))
                .throttlingBackoffStrategy(BackoffStrategy.exponentialDelay(baseDelay, maxDelay))
                .build();
        var builder = Ec2Client.builder()
                .region(Region.of(region))
                .credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.builder().connectionTimeout(Duration.ofSeconds(5))
                        .socketTimeout(callTimeout).build())
                .overrideConfiguration(o -> o.retryStrategy(retry).apiCallTimeout(callTimeout.multipliedBy(maxAttempts)));
        endpoint.ifPresent(builder::endpointOverride);
        return builder.build();
    }
}
