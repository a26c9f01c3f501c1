package dev.taskgov.watcher.config;

import dev.taskgov.service.support.KafkaLoginConfig;
import dev.taskgov.service.support.TopicsConfig;

import java.time.Duration;
import java.util.Map;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

/**
 * Typed configuration of job-watcher (properties under {@code taskgov.}). Defaults are declared here and only here.
 */
@ConfigMapping(prefix = "taskgov")
public interface JobWatcherConfig {

    /** Kafka topic names (docs/architecture.md, "The wire contract"); shared by every service, defaults in {@link TopicsConfig}. */
    TopicsConfig topics();

    /** This service's Kafka login (service-support). */
    KafkaLoginConfig kafka();

    /** The watcher itself. */
    Watcher watcher();

    interface Watcher {
        /** Whether informers and the decision consumer start with the application. */
        @WithDefault("true")
        boolean enabled();

        /**
         * The HyperPod cluster ARN of the Kubernetes cluster this watcher watches: written as {@code clusterArn} on
         * every submission and finish (required by admission once the deployment governs several clusters).
         */
        java.util.Optional<String> clusterArn();

        /** Namespaces governed by taskgov start with this prefix; the team is the rest of the name. */
        @WithDefault("hyperpod-ns-")
        String namespacePrefix();

        /**
         * A team's only instance type, used when a pod template has no {@code node.kubernetes.io/instance-type}
         * node selector (key = team, value = instance type).
         */
        Map<String, String> teamInstanceTypes();

        /** Consumer group reading admitted, preempted and status records. */
        @WithDefault("taskgov-job-watcher")
        String groupId();

        /** CloudEvents ce_source of what the watcher publishes; also the Kubernetes Event source component. */
        @WithDefault("taskgov-job-watcher")
        String source();

        /** How long one poll of the decision topics waits. */
        @WithDefault("PT0.2S")
        Duration pollTimeout();

        /** How long publishing one record may take before the job is retried on the next resync. */
        @WithDefault("PT30S")
        Duration publishTimeout();

        /** Informer resync period (0 = none): a resync retries jobs whose submission failed. */
        @WithDefault("PT5M")
        Duration resyncPeriod();

        /** Leader election among watcher replicas (only the leader acts on jobs). */
        LeaderElection leaderElection();
    }

    interface LeaderElection {
        /** Off: this process acts alone. On: it acts only while it holds the Lease. */
        @WithDefault("false")
        boolean enabled();

        /** Namespace of the coordination.k8s.io Lease (the watcher's own namespace). */
        @WithDefault("taskgov-system")
        String namespace();

        @WithDefault("taskgov-job-watcher")
        String leaseName();

        /** This replica's name in the Lease; default the HOSTNAME variable (the pod name), else a random id. */
        java.util.Optional<String> identity();

        /** How long a lease holds without renewal before a standby may take it. */
        @WithDefault("PT15S")
        Duration leaseDuration();

        /** How long the leader keeps trying to renew before it gives up leading. */
        @WithDefault("PT10S")
        Duration renewDeadline();

        /** How often standbys try to take the lease. */
        @WithDefault("PT2S")
        Duration retryPeriod();
    }
}
