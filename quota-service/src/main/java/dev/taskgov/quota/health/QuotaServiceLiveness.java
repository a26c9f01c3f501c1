package dev.taskgov.quota.health;

import jakarta.enterprise.context.ApplicationScoped;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Liveness;

/**
 * Says that quota-service is up, under {@code /q/health/live}. Readiness of Kafka and PostgreSQL
 * is reported by the extensions' own checks once channels and the datasource exist; whether the topology topic has
 * been read to its end by {@link TopologyReadiness}.
 */
@Liveness
@ApplicationScoped
public class QuotaServiceLiveness implements HealthCheck {

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.up("quota-service");
    }
}
