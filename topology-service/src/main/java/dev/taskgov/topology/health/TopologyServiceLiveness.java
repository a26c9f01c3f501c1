package dev.taskgov.topology.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Says that topology-service is up, under {@code /q/health/live}. Readiness of Kafka
 * is reported by the extensions' own checks once channels exist.
 */
@Liveness
@ApplicationScoped
public class TopologyServiceLiveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("topology-service");
    }
}
