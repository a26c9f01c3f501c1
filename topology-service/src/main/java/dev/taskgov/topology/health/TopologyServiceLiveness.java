package dev.taskgov.topology.health;

import dev.taskgov.topology.capacity.WorkloadEventsConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Says that topology-service is up, under {@code /q/health/live}: down when the workload events consumer's thread
 * has ended (free capacity would no longer follow the topics). The publisher's Kafka channel reports its own
 * readiness; the workload events consumer reports its in {@link WorkloadEventsReadiness}.
 */
@Liveness
@ApplicationScoped
public class TopologyServiceLiveness implements HealthCheck {

    @Inject
    WorkloadEventsConsumer workloadEvents;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.builder().name("topology-service").status(workloadEvents.alive()).build();
    }
}
