package dev.taskgov.topology.health;

import dev.taskgov.topology.capacity.WorkloadEventsConsumer;
import dev.taskgov.service.support.health.CaughtUpReadiness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the workload topics have been read to their end as of the start (before, {@code GET /topology} would
 * show capacity free that admitted workloads hold), and while the consumer is not held up by a dead letter the
 * broker refuses; the reason is in the check's data.
 */
@Readiness
@ApplicationScoped
public class WorkloadEventsReadiness extends CaughtUpReadiness {

    @Inject
    WorkloadEventsConsumer workloadEvents;

    public WorkloadEventsReadiness() {
        super("workload-events");
    }

    @Override
    protected String notReady() {
        return workloadEvents.notReady();
    }
}
