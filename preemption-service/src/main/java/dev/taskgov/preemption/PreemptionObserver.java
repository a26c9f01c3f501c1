package dev.taskgov.preemption;

import dev.taskgov.service.support.DeadLetterMetrics;

import dev.taskgov.core.model.PreemptionReason;

import java.time.Duration;

/** What the decider reports for metrics; every method runs on the loop thread. */
public interface PreemptionObserver {

    PreemptionObserver NONE = new PreemptionObserver() {
    };

    /** A victim's eviction was published. */
    default void evicted(dev.taskgov.core.cluster.ClusterArn cluster, String team, PreemptionReason reason) {
    }

    /** An eviction admission-service decided without a preemptor (NodeFailure, QuotaRemoved) was published. */
    default void relayed(dev.taskgov.core.cluster.ClusterArn cluster, String team, PreemptionReason reason) {
    }

    /** A request ended without evicting anything; {@code why} is a short label (NoPlan, AlreadyAdmitted, ...). */
    default void noVictims(String why) {
    }

    /** A request was handled (planned and emitted, or refused), in this time. */
    default void handled(Duration took) {
    }

    /** A record went to the dead-letter topic; {@code reason} is a short label. */
    default void deadLettered(String topic, DeadLetterMetrics.Reason reason) {
    }

    /** The dead letter of a record of {@code topic} could not be written; the record comes again. */
    default void deadLetterWriteFailed(String topic) {
    }

    /** Victims now waiting for their grace period to end. */
    default void gracesPending(int count) {
    }
}
