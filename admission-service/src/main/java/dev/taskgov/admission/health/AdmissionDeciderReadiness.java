package dev.taskgov.admission.health;

import dev.taskgov.admission.AdmissionDecider;
import dev.taskgov.admission.AdmissionRuntime;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Says whether this instance is the decider (state rebuilt, answering reads) or a standby, and
 * how far behind its inputs it is. Both roles are "up": a standby is a healthy spare.
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
        return HealthCheckResponse.named("admission-decider").up()
                .withData("role", decider ? "decider" : d == null ? "disabled" : "standby")
                .withData("lag", d == null ? 0 : d.lag())
                .build();
    }
}
