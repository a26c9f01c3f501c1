package dev.taskgov.testsupport;

import java.util.Map;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points a {@code @QuarkusTest} application at this JVM's shared real Kafka broker ({@link SharedKafka}),
 * with every taskgov topic created. Use: {@code @WithTestResource(KafkaTestResource.class)}.
 *
 * <p>The broker outlives the application (one per JVM), so {@link #stop()} leaves it running.
 */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    @Override
    public Map<String, String> start() {
        String bootstrap = SharedKafka.bootstrapServers();
        return Map.of(
                "kafka.bootstrap.servers", bootstrap,
                "mp.messaging.connector.smallrye-kafka.bootstrap.servers", bootstrap,
                // Every service verifies requests with keys encrypted under this JVM's master key (TestCredentials).
                TestCredentials.MASTER_KEY_PROPERTY, TestCredentials.MASTER_KEY);
    }

    @Override
    public void stop() {
        // The broker is shared by every test of this JVM; SharedKafka stops it when the JVM exits.
    }
}
