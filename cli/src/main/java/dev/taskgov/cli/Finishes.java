package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPodsReady;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * Reports what runs a workload tells taskgov (its end, and gang admission's readiness). Ends workloads as the profile
 * the CLI was given: with the administrator's profile (or a Kafka login named with
 * {@code --kafka-config}) by writing the finished topic with that login, as the job watcher does; with any other
 * profile through admission-service, signed with the profile's key, which finishes only the key's own team's
 * workloads ({@link Endpoints#finishesThroughKafka()}).
 */
sealed interface Finishes extends AutoCloseable {

    static Finishes open(Endpoints endpoints, Clock clock, PrintWriter err) {
        return endpoints.finishesThroughKafka() ? new ThroughKafka(endpoints.kafkaWriter(clock, err), clock)
                : new ThroughAdmission(endpoints.admission());
    }

    /** Ends one workload; {@code clusterArn} (may be null) routes a Kafka write, admission-service knows it itself. */
    void finish(String id, WorkloadFinished.Outcome outcome, String clusterArn);

    /**
     * Reports every pod of one workload ready (gang admission), the same way as a finish: the readiness topic with the
     * Kafka login, else admission-service, which allows a team key its own workloads only.
     */
    void podsReady(String id, String clusterArn);

    /** Whether finishes are written to the topic (else asked of admission-service). */
    boolean throughKafka();

    @Override
    void close();

    /** The finished and readiness topics, written with the Kafka login. */
    record ThroughKafka(KafkaWriter kafka, Clock clock) implements Finishes {
        @Override
        public void finish(String id, WorkloadFinished.Outcome outcome, String clusterArn) {
            kafka.send(KafkaWriter.FINISHED_TOPIC, id, new WorkloadFinished(id, clock.instant(), outcome, clusterArn), WorkloadFinished.TYPE);
        }

        @Override
        public void podsReady(String id, String clusterArn) {
            kafka.send(KafkaWriter.PODS_READY_TOPIC, id, new WorkloadPodsReady(id, clock.instant(), clusterArn), WorkloadPodsReady.TYPE);
        }

        @Override
        public boolean throughKafka() {
            return true;
        }

        @Override
        public void close() {
            kafka.close();
        }
    }

    /** admission-service, signed with the profile's key. */
    record ThroughAdmission(AdmissionClient admission) implements Finishes {
        @Override
        public void finish(String id, WorkloadFinished.Outcome outcome, String clusterArn) {
            admission.finish(id, outcome.name());
        }

        @Override
        public void podsReady(String id, String clusterArn) {
            admission.podsReady(id);
        }

        @Override
        public boolean throughKafka() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}
