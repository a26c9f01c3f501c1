package dev.taskgov.testsupport;

import java.util.HashMap;
import java.util.Map;

import dev.taskgov.core.events.KafkaAccess;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

/**
 * Points a {@code @QuarkusTest} application at this JVM's shared real Kafka broker ({@link SharedKafka}),
 * with every taskgov topic created. Use: {@code @WithTestResource(KafkaTestResource.class)}.
 *
 * <p>The application logs in as its own service principal, with its least rights, as it does in production: the
 * service names itself ({@code taskgov.kafka.username} in its application.properties) and finds its password
 * among {@code taskgov.kafka.passwords.<principal>}, which this resource gives for every service principal of the
 * run (and the administrator's, for a test that logs in as such). On an unsecured broker (a container, or an external one without credentials) it connects in plain text.
 *
 * <p>The broker outlives the application (one per JVM), so {@link #stop()} leaves it running.
 */
public class KafkaTestResource implements QuarkusTestResourceLifecycleManager {

    /**
     * Init argument: {@code "false"} for a service without an HTTP API to protect (preemption-service, the job
     * watcher), whose configuration has no {@code taskgov.auth} group and refuses the master key as a property it
     * cannot map (SmallRye checks overrides and system properties alike against the mappings).
     */
    public static final String VERIFIES_REQUESTS = "verifies-requests";

    private boolean verifiesRequests = true;

    @Override
    public void init(Map<String, String> initArgs) {
        verifiesRequests = !"false".equals(initArgs.get(VERIFIES_REQUESTS));
    }

    @Override
    public Map<String, String> start() {
        String bootstrap = SharedKafka.bootstrapServers();
        Map<String, String> config = new HashMap<>();
        config.put("kafka.bootstrap.servers", bootstrap);
        config.put("mp.messaging.connector.smallrye-kafka.bootstrap.servers", bootstrap);
        if (SharedKafka.secured()) {
            for (String service : KafkaAccess.SERVICES) {
                config.put("taskgov.kafka.passwords." + service, SharedKafka.password(service));
            }
            // For a test whose application must log in as the administrator (taskgov.kafka.username), e.g. on
            // topics it renamed, which no service's grant names.
            config.put("taskgov.kafka.passwords." + KafkaAccess.ADMIN, SharedKafka.password(KafkaAccess.ADMIN));
        } else {
            config.put("taskgov.kafka.security-protocol", "PLAINTEXT");
        }
        // Every HTTP service verifies requests with keys encrypted under this JVM's master key (TestCredentials).
        if (verifiesRequests) config.put(TestCredentials.MASTER_KEY_PROPERTY, TestCredentials.MASTER_KEY);
        return config;
    }

    @Override
    public void stop() {
        // The broker is shared by every test of this JVM; SharedKafka stops it when the JVM exits.
    }
}
