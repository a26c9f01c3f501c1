package dev.taskgov.service.support;

import java.util.Map;

import io.smallrye.config.WithDefault;

/**
 * How a service logs in to the broker (docs/security.md, "Kafka"), as the config group {@code taskgov.kafka.*} of
 * every service's {@code @ConfigMapping}. service-support's {@code META-INF/microprofile-config.properties} turns it
 * into the Kafka clients' {@code kafka.security.protocol}, {@code kafka.sasl.mechanism} and
 * {@code kafka.sasl.jaas.config}, which the messaging channels use and {@link KafkaClientSecurity} hands to the
 * services' own clients.
 */
public interface KafkaLoginConfig {
    /** The service's principal: its application name (quota-service, admission-service, ...). */
    String username();

    /**
     * Its password (environment: TASKGOV_KAFKA_PASSWORD); unless set, the one {@link #passwords()} gives its
     * principal, else empty: a secured broker then refuses the login (the log says so), and a broker without SASL
     * ({@link #securityProtocol()} PLAINTEXT: docker-compose's, the Testcontainers tier's) needs none.
     */
    java.util.Optional<String> password();

    /** Passwords by principal, as test-support hands them to a test application for every service. */
    Map<String, String> passwords();

    /** SASL_PLAINTEXT (the broker taskgov runs); PLAINTEXT only for a broker that has no SASL listener. */
    @WithDefault("SASL_PLAINTEXT")
    String securityProtocol();
}
