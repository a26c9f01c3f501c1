package dev.taskgov.quota.config;

import dev.taskgov.service.support.KafkaLoginConfig;
import dev.taskgov.service.support.TopicsConfig;
import dev.taskgov.service.support.auth.AuthConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

import java.time.Duration;
import java.util.Map;

/**
 * Typed configuration of quota-service (properties under {@code taskgov.}). Defaults are declared here and
 * only here; {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
@ConfigMapping(prefix = "taskgov")
public interface QuotaServiceConfig {

    /** Kafka topic names (docs/architecture.md, "The wire contract"); shared by every service, defaults in {@link TopicsConfig}. */
    TopicsConfig topics();

    /** This service's Kafka login (service-support). */
    KafkaLoginConfig kafka();

    /** Access control: the master key that encrypts access-key secrets ({@code taskgov.auth.*}). */
    AuthConfig auth();

    /** The quota API, its rules and its publishing (properties under {@code taskgov.quota.}). */
    Quota quota();

    interface Quota {
        /** Region written into ARNs. */
        @WithDefault("us-west-2")
        String region();

        /** Account id (12 digits) written into ARNs. */
        @WithDefault("000000000000")
        String accountId();

        /** Refuse quotas whose sum exceeds the cluster capacity learned from the topology topic. */
        @WithDefault("true")
        boolean enforceCapacity();

        /**
         * Instance type totals that override the built-in catalog, e.g.
         * {@code taskgov.quota.instance-types."ml.p5.48xlarge".accelerators=8}.
         */
        Map<String, InstanceTypeTotals> instanceTypes();

        /** CloudEvents {@code ce_source} of the records on the quota topic. */
        @WithDefault("urn:taskgov:quota-service")
        String eventSource();

        /** How often the gauges are recomputed after a change. */
        @WithDefault("2s")
        Duration metricsRefreshInterval();

        Outbox outbox();
    }

    /** One instance of a type: what ratio defaults are computed from. */
    interface InstanceTypeTotals {
        long accelerators();

        double vcpu();

        double memoryGib();
    }

    interface Outbox {
        /** How often unsent outbox rows are looked for (besides right after each commit). */
        @WithDefault("2s")
        Duration pollInterval();

        /** Rows sent per publishing transaction. */
        @WithDefault("100")
        int batchSize();

        /** How long to wait for the broker's acknowledgement of a batch. */
        @WithDefault("30s")
        Duration sendTimeout();

        /** On start, write the current state of every quota and scheduler config to the outbox again. */
        @WithDefault("true")
        boolean republishOnStart();
    }
}
