package dev.taskgov.preemption.config;

import dev.taskgov.service.support.KafkaLoginConfig;
import dev.taskgov.service.support.TopicsConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Typed configuration of preemption-service (properties under {@code taskgov.}). Defaults are declared here and
 * only here; {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
@ConfigMapping(prefix = "taskgov")
public interface PreemptionServiceConfig {

    /** Kafka topic names (docs/architecture.md, "The wire contract"); shared by every service, defaults in {@link TopicsConfig}. */
    TopicsConfig topics();

    /** This service's Kafka login (service-support). */
    KafkaLoginConfig kafka();

    /** The decider. */
    Preemption preemption();

    interface Preemption extends dev.taskgov.service.support.DeciderMembershipConfig,
            dev.taskgov.service.support.DeciderTurnsConfig {
        /** Whether this instance joins the deciders' group at startup. */
        @WithDefault("true")
        boolean enabled();


        /** Consumer group of the deciders; one member decides, the others stand by. */
        @WithDefault("taskgov-preemption")
        String groupId();

        /**
         * Prefix of the transactional ids ({@code <prefix><partition>}), stable so that the next owner of a partition
         * fences the previous one.
         */
        @WithDefault("taskgov-preemption-")
        String transactionalIdPrefix();

        /** Internal compacted changelog: room reserved for preemptors and pending grace periods. */
        @WithDefault(dev.taskgov.core.events.TopicCatalog.Names.PREEMPTION_CHANGELOG)
        String changelogTopic();

        /** CloudEvents ce_source of what preemption-service publishes. */
        @WithDefault("urn:taskgov:preemption-service")
        String source();

        /**
         * Grace period per priority class of the victim ({@code taskgov.preemption.grace-period."training"=30s});
         * a class not listed is evicted at once.
         */
        java.util.Map<String, java.time.Duration> gracePeriod();

        /** How long room made for a preemptor is held when its admission never shows up. */
        @WithDefault("PT5M")
        java.time.Duration reservationTimeout();

        /** How long one poll waits for records (also how often due grace periods are checked). */
        @WithDefault("PT0.1S")
        java.time.Duration pollTimeout();

        /** How long reading the state topics to their end may take on takeover. */
        @WithDefault("PT2M")
        java.time.Duration rebuildTimeout();

        /** Create missing topics at startup (one partition per cluster for the requests). */
        @WithDefault("true")
        boolean createTopics();
    }
}
