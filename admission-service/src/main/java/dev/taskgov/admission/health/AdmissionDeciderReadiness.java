package dev.taskgov.admission.health;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.AdmissionRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready exactly when this instance answers reads ({@link AdmissionRuntime#reads()}): from its deciding states
 * when it decides for every partition, else once its read replica has caught up. So behind a load balancer a
 * ready instance never answers 503. The data say the role (decider, standby or disabled) and the decider's lag.
 */
@Readiness
@ApplicationScoped
public class AdmissionDeciderReadiness implements HealthCheck {

    @Inject
    AdmissionRuntime runtime;

    @Override
    public HealthCheckResponse call() {
        AdmissionDecider d = runtime.deciderInstance();
        boolean decider = d != null && d.isDecider();
        boolean answersReads = runtime.reads().isPresent();
        return HealthCheckResponse.named("admission-decider").status(answersReads)
                .withData("role", decider ? "decider" : d == null ? "disabled" : "standby")
                .withData("reads", runtime.readsFromDecider() ? "decider" : answersReads ? "replica" : "not yet")
                .withData("lag", d == null ? 0 : d.lag())
                .withData("partitions", d == null ? "" : d.ownedPartitions() + " of " + d.inputPartitions())
                .build();
    }
}
