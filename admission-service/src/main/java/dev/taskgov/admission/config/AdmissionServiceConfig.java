package dev.taskgov.admission.config;

import dev.taskgov.service.support.KafkaLoginConfig;
import dev.taskgov.service.support.TopicsConfig;
import dev.taskgov.service.support.auth.AuthConfig;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Typed configuration of admission-service (properties under {@code taskgov.}). Defaults are declared here and
 * only here; {@code application.properties} refers to them, e.g. {@code ${taskgov.topics.quota}}.
 */
@ConfigMapping(prefix = "taskgov")
public interface AdmissionServiceConfig {

    /** Kafka topic names (docs/architecture.md, "The wire contract"); shared by every service, defaults in {@link TopicsConfig}. */
    TopicsConfig topics();

    /** This service's Kafka login (service-support). */
    KafkaLoginConfig kafka();

    /** Access control: the master key that decrypts access-key secrets ({@code taskgov.auth.*}). */
    AuthConfig auth();

    /** The decider: consumer group, transactions, changelog. */
    Admission admission();

    interface Admission extends dev.taskgov.service.support.DeciderMembershipConfig,
            dev.taskgov.service.support.DeciderTurnsConfig {
        /** Whether this instance joins the deciders' group at startup (off: HTTP only, every read answers 503). */
        @WithDefault("true")
        boolean enabled();


        /**
         * Consumer group of the deciders: its members share the partitions of the inputs (each partition, a set of
         * clusters, has one owner at a time).
         */
        @WithDefault("taskgov-admission")
        String groupId();

        /**
         * Prefix of the transactional ids ({@code <prefix><partition>}), stable so that the next owner of a partition
         * fences the previous one.
         */
        @WithDefault("taskgov-admission-")
        String transactionalIdPrefix();

        /** Internal compacted changelog of the decider's state (key = workload id). */
        @WithDefault(dev.taskgov.core.events.TopicCatalog.Names.ADMISSION_CHANGELOG)
        String changelogTopic();

        /** CloudEvents ce_source of what admission-service publishes. */
        @WithDefault("urn:taskgov:admission-service")
        String source();

        /** How long one poll waits for records. */
        @WithDefault("PT0.1S")
        java.time.Duration pollTimeout();

        /**
         * How long the read replica (which answers reads for the clusters another instance decides) lets the broker
         * gather the changelog's records before answering its fetch, from 0 to 1 s ({@link
         * dev.taskgov.service.support.FollowerFetch}): its reads trail the decider by up to that much more, for fewer
         * fetches at a steady rate. Zero fetches as soon as anything is committed.
         */
        @WithDefault("PT0.05S")
        java.time.Duration replicaFetchWait();

        /**
         * How often a workload's figures alone (what it lacks while it waits, with the same state and reason) may be
         * written to the status topic and the changelog: a new state or reason is written at once, new figures at most
         * once per interval per workload (the latest when it has passed), while {@code GET /workloads/{id}} shows them
         * at once. Zero writes every change.
         */
        @WithDefault("PT10S")
        java.time.Duration statusRefresh();

        /**
         * How many records of figures alone (see {@link #statusRefresh()}) each partition's decider writes per second
         * at most, over all its workloads; the due figures beyond it stay held, shown by reads at once, and are written
         * earliest due first. Each waiting workload's figures are due once per refresh: at 100,000 waiting that is
         * 10,000 records a second, which left the decider little time to decide. A new state or reason is never held.
         * Zero or less: no bound.
         */
        @WithDefault("1000")
        int statusFiguresPerSecond();

        /**
         * How often the per-team gauges are recomputed when decisions changed them. A recomputation walks every
         * workload record and quota, so it runs at most once per interval, off the decider's thread, rather than
         * after every batch (during a burst it cost a sixth of the decider's CPU).
         */
        @io.smallrye.config.WithDefault("1s")
        java.time.Duration metersRefresh();

        /**
         * How long a workload that ended (Finished, or Rejected) is kept after its end: listed, described, on the
         * changelog and the status topic. Then the decider forgets it (tombstones on both topics) and its id is unknown
         * again. An hour: long enough for a person or a pipeline to look at how a job ended, short enough that a busy
         * cluster's memory and rebuild time stay bounded (docs/architecture.md, "Retention of ended workloads").
         * Zero forgets at once; negative is refused.
         */
        @WithDefault(dev.taskgov.core.model.FinishedRetention.DEFAULT_PERIOD)
        java.time.Duration finishedRetention();

        /**
         * How many ended workloads are kept at most: past that many, the one that ended first is forgotten first,
         * before its {@link #finishedRetention()} is over. Bounds memory and rebuild time at any rate of workloads (at
         * 500 per second an hour is 1.8 million); 20,000 take about 90 MiB. Negative is refused.
         */
        @WithDefault(dev.taskgov.core.model.FinishedRetention.DEFAULT_MAX_ENDED)
        int finishedRetentionMax();

        /**
         * Gang admission (Kueue's {@code waitForPodsReady}, HyperPod's gang scheduling; docs/semantics.md, "Gang
         * admission"): these settings for every cluster, each overridable per cluster under {@code clusters.<id>}.
         */
        WaitForPodsReadyConfig waitForPodsReady();

        /** How long reading the changelog and the quota/topology topics to their end may take on takeover. */
        @WithDefault("PT2M")
        java.time.Duration rebuildTimeout();

        /** Create missing topics at startup (one partition for the decider's input topics). */
        @WithDefault("true")
        boolean createTopics();
    }

    /**
     * Gang admission's deployment setting: an admitted workload that does not report every pod ready within
     * {@link #timeout()} is evicted (PodsReadyTimeout) and requeued after a backoff of base x 2^(n-1) seconds, capped
     * at the max, at most {@link #backoffLimitCount()} times (absent: no limit); the eviction after that rejects it
     * (RequeuingLimitExceeded).
     */
    interface WaitForPodsReadyConfig {
        /** Off by default: a cluster's workloads then need not report readiness. */
        @WithDefault("false")
        boolean enabled();

        @WithDefault("PT10M")
        java.time.Duration timeout();

        @WithDefault("60")
        long backoffBaseSeconds();

        @WithDefault("3600")
        long backoffMaxSeconds();

        /** How many requeues after a timeout a workload gets; absent: no limit. */
        java.util.OptionalInt backoffLimitCount();

        /**
         * Per cluster, keyed by the cluster's id (the ARN's last part, {@code cluster/<id>}): each setting given
         * replaces the one above for that cluster, e.g. {@code clusters.taskgovdemo1.enabled=true}.
         */
        java.util.Map<String, ClusterWaitForPodsReady> clusters();
    }

    /** One cluster's overrides of {@link WaitForPodsReadyConfig}; what is absent is taken from there. */
    interface ClusterWaitForPodsReady {
        java.util.Optional<Boolean> enabled();

        java.util.Optional<java.time.Duration> timeout();

        java.util.OptionalLong backoffBaseSeconds();

        java.util.OptionalLong backoffMaxSeconds();

        java.util.OptionalInt backoffLimitCount();
    }
}
