package dev.taskgov.local;

import org.apache.kafka.server.metrics.KafkaYammerMetrics;

/**
 * The local platform's broker: Kafka's own {@code kafka.Kafka} with its request histograms in uniform reservoirs
 * ({@link RequestHistograms}), configured by {@link SecureBroker}.
 *
 * <p>Usage: {@code LocalBroker <server.properties>}.
 */
public final class LocalBroker {

    private LocalBroker() {
    }

    public static void main(String[] args) {
        RequestHistograms.sampleUniformly(KafkaYammerMetrics.defaultRegistry());
        kafka.Kafka.main(args);
    }
}
