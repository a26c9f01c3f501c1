package dev.taskgov.admission.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Says that admission-service is up, under {@code /q/health/live}. Readiness of Kafka
 * is reported by the extensions' own checks once channels exist.
 */
@Liveness
@ApplicationScoped
public class AdmissionServiceLiveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("admission-service");
    }
}
