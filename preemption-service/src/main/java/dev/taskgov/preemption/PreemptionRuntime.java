package dev.taskgov.preemption;

import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.preemption.config.PreemptionServiceConfig;
import dev.taskgov.service.support.DeciderMembershipConfig;
import dev.taskgov.service.support.DeciderTurnsConfig;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;

import java.time.Clock;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/** Owns this instance's preemption decider: started at startup, stopped at shutdown. */
@ApplicationScoped
public class PreemptionRuntime {

    @Inject
    PreemptionServiceConfig config;

    @Inject
    MeterRegistry registry;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private PreemptionDecider decider;

    void onStart(@Observes StartupEvent event) {
        PreemptionServiceConfig.Preemption p = config.preemption();
        if (!p.enabled()) return;
        DeciderTopics topics = DeciderTopics.of(config.topics(), p.changelogTopic());
        Properties client = KafkaClientSecurity.client(bootstrapServers, "preemption-service");
        PreemptionDecider.Settings settings = new PreemptionDecider.Settings(client,
                new PreemptionProcessor.Settings(topics, Map.copyOf(p.gracePeriod()), p.reservationTimeout()),
                p.groupId(), p.transactionalIdPrefix(), p.source(), p.pollTimeout(), p.rebuildTimeout(),
                p.createTopics(), DeciderMembershipConfig.membership(p), DeciderTurnsConfig.turns(p, "taskgov.preemption"));
        PreemptionDecider[] self = new PreemptionDecider[1];
        PreemptionMetrics metrics = new PreemptionMetrics(registry, () -> self[0] != null && self[0].isDecider(),
                () -> self[0] == null ? 0L : self[0].lag(), java.util.List.of(topics.preemptionRequested(), topics.quota(), topics.topology()));
        decider = new PreemptionDecider(settings, Clock.systemUTC(), metrics);
        self[0] = decider;
        decider.start();
    }

    void onStop(@Observes ShutdownEvent event) {
        if (decider != null) decider.close();
    }

    /** The decider when this instance decides; empty on a standby or while it rebuilds. */
    public Optional<PreemptionDecider> decider() {
        return decider != null && decider.isDecider() ? Optional.of(decider) : Optional.empty();
    }
}
