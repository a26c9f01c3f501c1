package dev.taskgov.quota.health;

import dev.taskgov.quota.capacity.TopologyCatchUp;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the topology topic has been read to its end as of the start (before, the quota-sum rule would check
 * quotas against a part of the cluster's nodes, and the API answers {@code ServiceUnavailable} where it would);
 * the reason, with the partitions behind and how far, is in the check's data.
 */
@Readiness
@ApplicationScoped
public class TopologyReadiness implements HealthCheck {

    @Inject
    TopologyCatchUp catchUp;

    @Override
    public HealthCheckResponse call() {
        String notReady = catchUp.notReady();
        HealthCheckResponseBuilder b = HealthCheckResponse.named("topology").status(notReady == null);
        return notReady == null ? b.build() : b.withData("reason", notReady).build();
    }
}
