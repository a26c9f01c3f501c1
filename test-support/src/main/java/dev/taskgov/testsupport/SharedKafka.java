package dev.taskgov.testsupport;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import dev.taskgov.core.events.KafkaAccess;
import org.testcontainers.kafka.KafkaContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The one real Kafka broker of this test JVM, started on first use and kept until the JVM exits.
 *
 * <p>Chosen in this order: {@code TASKGOV_KAFKA_BOOTSTRAP} if set (with the credentials file that
 * {@code TASKGOV_KAFKA_CREDENTIALS} names, e.g. a local runtime's {@code .taskgov/kafka/credentials.properties});
 * else a Testcontainers broker when a Docker engine answers and has the broker's image ({@link ContainerTier});
 * else an embedded KRaft broker in a child process, secured as the local runtime's: SASL/SCRAM only and ACLs
 * enforced, with every service's principal and passwords generated for this run.
 * Every taskgov topic ({@link TaskgovTopics#ALL}) exists once {@link #bootstrapServers()} returns.
 *
 * <p>Tests connect with {@link #adminClientProperties()} (the super user) or, to run as a service or a team
 * would, with {@link #clientProperties(String)}.
 */
public final class SharedKafka {

    public static final String BOOTSTRAP_ENV = "TASKGOV_KAFKA_BOOTSTRAP";
    public static final String CREDENTIALS_ENV = "TASKGOV_KAFKA_CREDENTIALS";

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

    /** Whether the broker takes only authenticated clients (SASL) and enforces ACLs. */
    public static boolean secured() {
        return broker().credentials() != null;
    }

    /** The administrator's (super user's) client settings: bootstrap address and, on a secured broker, SASL. */
    public static Map<String, Object> adminClientProperties() {
        return clientProperties(KafkaAccess.ADMIN);
    }

    /**
     * A principal's client settings: bootstrap address and SASL/SCRAM credentials (a service's name, a team's
     * {@link KafkaAccess#teamPrincipal principal} once {@link #addTeams added}, or the administrator). On an
     * unsecured broker: the bootstrap address only.
     */
    public static Map<String, Object> clientProperties(String principal) {
        Broker b = broker();
        return BrokerDirectory.clientProperties(b.bootstrapServers(), b.credentials(), principal);
    }

    /** {@link #clientProperties} written to a file, for a client that reads its login from one (the CLI's --kafka-config). */
    public static Path clientConfigFile(String principal) {
        return BrokerDirectory.writeClientFile("shared-" + principal, clientProperties(principal));
    }

    /** A principal's password (e.g. for a service started as a child process); null on an unsecured broker. */
    public static String password(String principal) {
        Broker b = broker();
        return b.credentials() == null ? null : b.credentials().getProperty(principal);
    }

    /**
     * Gives teams their principals, grants and submission topics, as the local runtime does for its teams (its
     * own {@code KafkaProvisioning}, idempotent). Only on the embedded broker, whose directory test-support owns.
     */
    public static synchronized void addTeams(String... teams) {
        Broker b = broker();
        if (b.dir() == null) throw new IllegalStateException("teams can be added only to the embedded broker, not " + b.source());
        BrokerDirectory.provision(b.dir(), b.bootstrapServers(), TaskgovTopics.PARTITIONS, List.of(teams));
        broker = new Broker(b.bootstrapServers(), b.source(), b.dir(), BrokerDirectory.credentials(b.dir()));
    }

    private static Broker broker() {
        if (broker == null) {
            synchronized (SharedKafka.class) {
                if (broker == null) {
                    Broker started = startBroker();
                    broker = started;
                    KafkaTopics.createTaskgovTopics(adminClientProperties());
                }
            }
        }
        return broker;
    }

    private static Broker startBroker() {
        String fromEnvironment = System.getenv(BOOTSTRAP_ENV);
        if (fromEnvironment != null && !fromEnvironment.isBlank()) {
            String credentials = System.getenv(CREDENTIALS_ENV);
            return new Broker(fromEnvironment.trim(), Source.ENVIRONMENT, null,
                    credentials == null || credentials.isBlank() ? null : BrokerDirectory.load(Path.of(credentials.trim())));
        }
        // Once per JVM, not per class loader (JvmWide): every Quarkus application of a test JVM shares it.
        Map<String, String> started = JvmWide.startOnce("kafka", SharedKafka::startOwnBroker);
        String bootstrap = started.get("bootstrap");
        Source source = Source.valueOf(started.get("source"));
        if (source != Source.EMBEDDED) return new Broker(bootstrap, source, null, null);
        Path dir = Path.of(started.get("dir"));
        return new Broker(bootstrap, source, dir, BrokerDirectory.credentials(dir));
    }

    private static Map<String, String> startOwnBroker() {
        if (ContainerTier.unavailableFor(ContainerTier.KAFKA_IMAGE, "Kafka broker").isEmpty()) {
            // taskgov/kafka runs the broker the way apache/kafka's image does (KAFKA_* settings, /etc/kafka/docker/run).
            // Not secured: its image has no SASL listener (docs/security.md, "out of scope").
            KafkaContainer container = new KafkaContainer(
                    DockerImageName.parse(ContainerTier.KAFKA_IMAGE).asCompatibleSubstituteFor("apache/kafka"));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop, "kafka-container-stop"));
            return Map.of("bootstrap", container.getBootstrapServers(), "source", Source.TESTCONTAINERS.name());
        }
        EmbeddedKafkaProcess embedded = EmbeddedKafkaProcess.start();
        return Map.of("bootstrap", embedded.bootstrapServers(), "source", Source.EMBEDDED.name(),
                "dir", embedded.dir().toString());
    }

    /** @param dir the embedded broker's directory, else null; @param credentials null when the broker is not secured */
    private record Broker(String bootstrapServers, Source source, Path dir, Properties credentials) {
    }
}
