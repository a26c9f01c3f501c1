package dev.taskgov.preemption.health;

import dev.taskgov.preemption.PreemptionRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once this instance is the preemption decider with its view rebuilt; a standby reports
 * "standby" (still up: it takes over through the consumer group when the decider goes away).
 */
@Readiness
@ApplicationScoped
public class PreemptionDeciderReadiness implements HealthCheck {

    @Inject
    PreemptionRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        boolean deciding = runtime.decider().isPresent();
        return HealthCheckResponse.named("preemption-decider").up().withData("role", deciding ? "decider" : "standby").build();
    }
}
