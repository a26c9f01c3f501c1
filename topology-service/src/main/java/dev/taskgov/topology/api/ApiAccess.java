package dev.taskgov.topology.api;

import dev.taskgov.service.support.auth.HttpApiAccess;
import dev.taskgov.topology.config.TopologyServiceConfig;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Who may call topology-service's HTTP API: the topology tree is for admins and viewers (docs/security.md). */
@ApplicationScoped
@Startup
public class ApiAccess extends HttpApiAccess {

    @Inject
    TopologyServiceConfig config;

    @Override
    protected Settings settings() {
        return new Settings("topology-service", config.topics(), config.auth());
    }
}
