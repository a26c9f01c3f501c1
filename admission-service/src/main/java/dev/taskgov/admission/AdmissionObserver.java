package dev.taskgov.admission;

import java.time.Duration;

/** What the decider reports as it decides (metrics); called on the loop thread. */
public interface AdmissionObserver {
    void admitted(String team, String priorityClass, Duration waited);

    void finished(String team);

    void preemptionRequested(String team);

    void deadLettered(String topic, String reasonCategory);

    void rejected(String team, String reason);

    /** After every batch of decisions (inside the decider's lock): gauges may read the state. */
    default void stateChanged(AdmissionProcessor processor) {
    }

    /** An observer that records nothing. */
    AdmissionObserver NONE = new AdmissionObserver() {
        public void admitted(String team, String priorityClass, Duration waited) {
        }

        public void finished(String team) {
        }

        public void preemptionRequested(String team) {
        }

        public void deadLettered(String topic, String reasonCategory) {
        }

        public void rejected(String team, String reason) {
        }
    };
}
