package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.service.support.DeadLetterMetrics;

import java.time.Duration;

/** What the decider reports as it decides (metrics), per cluster; called on the loop thread. */
public interface AdmissionObserver {
    void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited);

    void finished(ClusterArn cluster, String team);

    void preemptionRequested(ClusterArn cluster, String team);

    /** A record of {@code topic} went to the dead-letter topic. */
    void deadLettered(String topic, DeadLetterMetrics.Reason reason);

    /** The dead letter of a record of {@code topic} could not be written; the record comes again. */
    default void deadLetterWriteFailed(String topic) {
    }

    void rejected(ClusterArn cluster, String team, String reason);

    /**
     * A running workload moved off a failed node ({@code outcome} NodeReplaced) or was evicted without
     * a preemptor ({@code outcome} NodeFailure, QuotaRemoved or PodsReadyTimeout).
     */
    default void clusterChanged(ClusterArn cluster, String team, String outcome) {
    }

    /**
     * A run of the scheduler reached its bound of preemption evictions and stopped preempting (a guard the rules make
     * unnecessary: a preemption cycle they failed to prevent); {@code team} is the preemptor's whose victims crossed it.
     */
    default void preemptionsStopped(ClusterArn cluster, String team) {
    }

    /**
     * Gang admission's timers due at {@code now} in {@code cluster} (readiness deadlines, ends of backoffs) were acted
     * on, and what they decided is committed.
     */
    default void deadlinesReached(ClusterArn cluster, java.time.Instant now) {
    }

    /** A workload that ended ({@code state} Finished or Rejected) was forgotten: its retention elapsed. */
    default void forgotten(ClusterArn cluster, String team, dev.taskgov.core.model.WorkloadState state) {
    }

    /** After every batch of decisions (inside the decider's lock): gauges may read the state. */
    default void stateChanged(AdmissionReads state) {
    }

    /** An observer that records nothing. */
    AdmissionObserver NONE = new AdmissionObserver() {
        public void admitted(ClusterArn cluster, String team, String priorityClass, Duration waited) {
        }

        public void finished(ClusterArn cluster, String team) {
        }

        public void preemptionRequested(ClusterArn cluster, String team) {
        }

        public void deadLettered(String topic, DeadLetterMetrics.Reason reason) {
        }

        public void rejected(ClusterArn cluster, String team, String reason) {
        }
    };
}
