package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadFinished;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * Reports what runs a workload tells taskgov (its end, and gang admission's readiness). Ends workloads as the profile
 * the CLI was given: with the administrator's profile (or a Kafka login named with
 * {@code --kafka-config}) by writing the finished topic with that login, as the job watcher does; with any other
 * profile through admission-service, signed with the profile's key, which finishes only the key's own team's
 * workloads ({@link Endpoints#finishesThroughKafka()}).
 */
final class Finishes implements AutoCloseable {

    private final KafkaWriter kafka;
    private final AdmissionClient admission;
    private final Clock clock;

    private Finishes(KafkaWriter kafka, AdmissionClient admission, Clock clock) {
        this.kafka = kafka;
        this.admission = admission;
        this.clock = clock;
    }

    static Finishes open(Endpoints endpoints, Clock clock, PrintWriter err) {
        return endpoints.finishesThroughKafka() ? new Finishes(endpoints.kafkaWriter(clock, err), null, clock)
                : new Finishes(null, endpoints.admission(), clock);
    }

    /** Ends one workload; {@code clusterArn} (may be null) routes a Kafka write, admission-service knows it itself. */
    void finish(String id, WorkloadFinished.Outcome outcome, String clusterArn) {
        if (kafka != null) {
            kafka.send(KafkaWriter.FINISHED_TOPIC, id, new WorkloadFinished(id, clock.instant(), outcome, clusterArn), WorkloadFinished.TYPE);
        } else {
            admission.finish(id, outcome.name());
        }
    }

    /**
     * Reports every pod of one workload ready (gang admission), the same way as a finish: the readiness topic with the
     * Kafka login, else admission-service, which allows a team key its own workloads only.
     */
    void podsReady(String id, String clusterArn) {
        if (kafka != null) {
            kafka.send(KafkaWriter.PODS_READY_TOPIC, id, new dev.taskgov.core.events.WorkloadPodsReady(id, clock.instant(), clusterArn),
                    dev.taskgov.core.events.WorkloadPodsReady.TYPE);
        } else {
            admission.podsReady(id);
        }
    }

    /** Whether finishes are written to the topic (else asked of admission-service). */
    boolean throughKafka() {
        return kafka != null;
    }

    @Override
    public void close() {
        if (kafka != null) kafka.close();
    }
}
