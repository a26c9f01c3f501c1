package dev.taskgov.cli;

import dev.taskgov.core.events.WorkloadFinished;

import java.io.PrintWriter;
import java.time.Clock;

/**
 * Ends workloads as the profile the CLI was given: with the administrator's profile (or a Kafka login named with
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

    /** Whether finishes are written to the topic (else asked of admission-service). */
    boolean throughKafka() {
        return kafka != null;
    }

    @Override
    public void close() {
        if (kafka != null) kafka.close();
    }
}
