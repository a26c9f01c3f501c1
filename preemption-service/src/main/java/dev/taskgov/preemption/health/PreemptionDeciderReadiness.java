package dev.taskgov.preemption.health;

import dev.taskgov.preemption.PreemptionRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Always up once started: preemption-service serves nothing over HTTP but {@code /q/*}. The data say whether this
 * instance decides (owns partitions of the requests, their views rebuilt: "decider") or owns none ("standby": it
 * takes partitions over through the consumer group when an owner goes away or the partitions are re-spread), and
 * which partitions it owns.
 */
@Readiness
@ApplicationScoped
public class PreemptionDeciderReadiness implements HealthCheck {

    @Inject
    PreemptionRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        boolean deciding = runtime.decider().isPresent();
        return HealthCheckResponse.named("preemption-decider").up().withData("role", deciding ? "decider" : "standby")
                .withData("partitions", runtime.decider().map(d -> d.ownedPartitions().toString()).orElse("[]")).build();
    }
}
