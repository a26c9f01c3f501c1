package dev.taskgov.topology.config;

import dev.taskgov.service.support.KafkaLoginConfig;
import dev.taskgov.service.support.TopicsConfig;
import dev.taskgov.service.support.auth.AuthConfig;
import io.smallrye.config.ConfigMapping;

/**
 * Typed configuration of topology-service (properties under {@code taskgov.}). Defaults are declared here and
 * only here; {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
@ConfigMapping(prefix = "taskgov")
public interface TopologyServiceConfig {

    /** Node sources, polling and labelling ({@code taskgov.topology.*}). */
    dev.taskgov.topology.TopologyConfig topology();

    /** Kafka topic names (docs/architecture.md, "The wire contract"); shared by every service, defaults in {@link TopicsConfig}. */
    TopicsConfig topics();

    /** This service's Kafka login (service-support). */
    KafkaLoginConfig kafka();

    /** Access control: the master key that decrypts access-key secrets ({@code taskgov.auth.*}). */
    AuthConfig auth();
}
