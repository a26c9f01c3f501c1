package dev.taskgov.service.support;

import org.apache.kafka.clients.CommonClientConfigs;

import java.util.Properties;

import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;

/**
 * The login settings ({@code kafka.security.protocol}, {@code kafka.sasl.*}) of the service's configuration, for
 * the Kafka clients a service creates itself (deciders, readers, dead-letter producers): the same principal as its
 * messaging channels, so the broker's ACLs see one principal per service ({@link KafkaLoginConfig}).
 */
public final class KafkaClientSecurity {

    private static final String PREFIX = "kafka.";
    private static final String[] KEYS = {"security.protocol", "sasl.mechanism", "sasl.jaas.config"};

    private KafkaClientSecurity() {
    }

    /** The login settings of the running service's configuration (empty where it sets none). */
    public static Properties properties() {
        return properties(ConfigProvider.getConfig());
    }

    /** A client of the broker at {@code bootstrapServers} with the service's login. */
    public static Properties client(String bootstrapServers) {
        Properties props = properties();
        props.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        return props;
    }

    /** The same, named {@code clientId} in the broker's logs and quotas. */
    public static Properties client(String bootstrapServers, String clientId) {
        Properties props = client(bootstrapServers);
        props.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
        return props;
    }

    static Properties properties(Config config) {
        Properties props = new Properties();
        for (String key : KEYS) {
            config.getOptionalValue(PREFIX + key, String.class).ifPresent(v -> props.put(key, v));
        }
        return props;
    }
}
