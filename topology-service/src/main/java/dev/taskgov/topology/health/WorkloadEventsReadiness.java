package dev.taskgov.topology.health;

import dev.taskgov.topology.capacity.WorkloadEventsConsumer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the workload topics have been read to their end as of the start (before, {@code GET /topology} would
 * show capacity free that admitted workloads hold), and while the consumer is not held up by a dead letter the
 * broker refuses; the reason is in the check's data.
 */
@Readiness
@ApplicationScoped
public class WorkloadEventsReadiness implements HealthCheck {

    @Inject
    WorkloadEventsConsumer workloadEvents;

    @Override
    public HealthCheckResponse call() {
        String notReady = workloadEvents.notReady();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("workload-events").status(notReady == null);
        return notReady == null ? b.build() : b.withData("reason", notReady).build();
    }
}
