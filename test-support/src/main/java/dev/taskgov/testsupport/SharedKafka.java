package dev.taskgov.testsupport;

import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The one real Kafka broker of this test JVM, started on first use and kept until the JVM exits.
 *
 * <p>Chosen in this order: {@code TASKGOV_KAFKA_BOOTSTRAP} if set; else a Testcontainers broker when a
 * Docker engine answers and has the broker's image ({@link ContainerTier}); else an embedded KRaft
 * broker in a child process.
 * Every taskgov topic ({@link TaskgovTopics#ALL}) exists once {@link #bootstrapServers()} returns.
 */
public final class SharedKafka {

    public static final String BOOTSTRAP_ENV = "TASKGOV_KAFKA_BOOTSTRAP";

    private static volatile Broker broker;

    private SharedKafka() {
    }

    /** The broker's bootstrap address, e.g. {@code localhost:40321}; starts the broker on first call. */
    public static String bootstrapServers() {
        return broker().bootstrapServers();
    }

    /** Where this JVM's broker came from. */
    public static Source source() {
        return broker().source();
    }

    private static Broker broker() {
        if (broker == null) {
            synchronized (SharedKafka.class) {
                if (broker == null) {
                    Broker started = startBroker();
                    KafkaTopics.createTaskgovTopics(started.bootstrapServers());
                    broker = started;
                }
            }
        }
        return broker;
    }

    private static Broker startBroker() {
        String fromEnvironment = System.getenv(BOOTSTRAP_ENV);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            return new Broker(fromEnvironment.trim(), Source.ENVIRONMENT);
        }
        if (ContainerTier.unavailableFor(ContainerTier.KAFKA_IMAGE, "Kafka broker").isEmpty()) {
            // taskgov/kafka runs the broker the way apache/kafka's image does (KAFKA_* settings, /etc/kafka/docker/run).
            KafkaContainer container = new KafkaContainer(
                    DockerImageName.parse(ContainerTier.KAFKA_IMAGE).asCompatibleSubstituteFor("apache/kafka"));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "kafka-container-stop"));
            return new Broker(container.getBootstrapServers(), Source.TESTCONTAINERS);
        }
        return new Broker(EmbeddedKafkaProcess.start().bootstrapServers(), Source.EMBEDDED);
    }

    private record Broker(String bootstrapServers, Source source) {
    }
}
