package dev.taskgov.topology.api;

import dev.taskgov.topology.config.TopologyServiceConfig;
import dev.taskgov.service.support.auth.AccessGuard;
import dev.taskgov.service.support.auth.AuthFailure;
import dev.taskgov.service.support.auth.HttpAccess;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.ws.rs.core.Response;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerExceptionMapper;

/**
 * Who may call topology-service's HTTP API: every request is SigV4-verified against the access keys of the
 * credentials topic, and the topology tree is for admins and viewers (docs/security.md).
 */
@ApplicationScoped
@Startup
public class ApiAccess {

    @Inject
    TopologyServiceConfig config;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    private HttpAccess access;

    @PostConstruct
    void start() {
        access = new HttpAccess("topology-service", bootstrapServers, config.topics().credentials(),
                config.topics().audit(), config.auth());
    }

    void stop(@Observes ShutdownEvent event) {
        access.close();
    }

    public AccessGuard guard() {
        return access.guard();
    }

    @ServerExceptionMapper
    public Response refused(AuthFailure e) {
        return AccessGuard.response(e);
    }
}
