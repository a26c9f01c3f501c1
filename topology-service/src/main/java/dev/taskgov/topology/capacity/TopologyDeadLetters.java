package dev.taskgov.topology.capacity;

import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.service.support.DeadLetterWriter;
import dev.taskgov.topology.config.TopologyServiceConfig;
import dev.taskgov.topology.inventory.TopologyPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.util.List;

/**
 * Where the workload consumer's refused records go: a {@code DeadLetter} on the dead-letter topic, counted in
 * {@code taskgov_deadletter_records_total} (registered at 0 on start for every input topic; the team submission
 * topics count under their own names once one of their records is refused).
 */
@Startup
@Singleton
public class TopologyDeadLetters {

    private final DeadLetterWriter writer;

    @Inject
    TopologyDeadLetters(MeterRegistry registry, TopologyServiceConfig config,
                        @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers, Clock clock) {
        writer = new DeadLetterWriter(new DeadLetterMetrics(registry, List.of(config.topics().workloadSubmitted(),
                        config.topics().workloadAdmitted(), config.topics().workloadFinished(),
                        config.topics().workloadPreempted())),
                bootstrapServers, config.topics().deadletter(), TopologyPublisher.EVENT_SOURCE, clock);
    }

    DeadLetterWriter writer() {
        return writer;
    }

    @PreDestroy
    void stop() {
        writer.close();
    }
}
