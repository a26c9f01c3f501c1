package dev.taskgov.topology.capacity;

import dev.taskgov.service.support.DeadLetterFailureStrategy;
import dev.taskgov.service.support.DeadLetterMetrics;
import dev.taskgov.topology.config.TopologyServiceConfig;
import dev.taskgov.topology.inventory.TopologyPublisher;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Identifier;
import jakarta.annotation.PreDestroy;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.util.List;

/**
 * The failure strategy of the four workload channels: a record that does not parse goes to the
 * dead-letter topic as a {@code DeadLetter} and is counted in {@code taskgov_deadletter_records_total}
 * (registered at 0 on start for every input topic).
 */
@Startup
@Singleton
@Identifier(DeadLetterFailureStrategy.NAME)
public class TopologyDeadLetters extends DeadLetterFailureStrategy {

    @Inject
    TopologyDeadLetters(MeterRegistry registry, TopologyServiceConfig config,
                        @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers, Clock clock) {
        super(new DeadLetterMetrics(registry, List.of(config.topics().workloadSubmitted(),
                        config.topics().workloadAdmitted(), config.topics().workloadFinished(),
                        config.topics().workloadPreempted())),
                bootstrapServers, config.topics().deadletter(), TopologyPublisher.EVENT_SOURCE, clock);
    }

    @PreDestroy
    void stop() {
        close();
    }
}
