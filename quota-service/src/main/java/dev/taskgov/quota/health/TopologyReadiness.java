package dev.taskgov.quota.health;

import dev.taskgov.quota.capacity.TopologyCatchUp;
import dev.taskgov.service.support.health.CaughtUpReadiness;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready once the topology topic has been read to its end as of the start (before, the quota-sum rule would check
 * quotas against a part of the cluster's nodes, and the API answers {@code ServiceUnavailable} where it would);
 * the reason, with the partitions behind and how far, is in the check's data.
 */
@Readiness
@ApplicationScoped
public class TopologyReadiness extends CaughtUpReadiness {

    @Inject
    TopologyCatchUp catchUp;

    public TopologyReadiness() {
        super("topology");
    }

    @Override
    protected String notReady() {
        return catchUp.notReady();
    }
}
