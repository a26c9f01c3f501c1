package dev.taskgov.quota.capacity;

import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.service.support.DeadLetterFailureStrategy;
import dev.taskgov.service.support.DeadLetterMetrics;
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
 * The failure strategy of the {@code topology} channel: a node record that cannot be read goes to the
 * dead-letter topic as a {@code DeadLetter} and is counted in {@code taskgov_deadletter_records_total}
 * (registered at 0 on start).
 */
@Startup
@Singleton
@Identifier(DeadLetterFailureStrategy.NAME)
public class QuotaDeadLetters extends DeadLetterFailureStrategy {

    @Inject
    QuotaDeadLetters(MeterRegistry registry, QuotaServiceConfig config,
                     @ConfigProperty(name = "kafka.bootstrap.servers") String bootstrapServers, Clock clock) {
        super(new DeadLetterMetrics(registry, List.of(config.topics().topology())), bootstrapServers,
                config.topics().deadletter(), config.quota().eventSource(), clock);
    }

    @PreDestroy
    void stop() {
        close();
    }
}
