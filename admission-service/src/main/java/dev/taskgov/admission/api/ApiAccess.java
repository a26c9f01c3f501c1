package dev.taskgov.admission.api;

import dev.taskgov.admission.config.AdmissionServiceConfig;
import dev.taskgov.service.support.auth.HttpApiAccess;
import io.quarkus.runtime.Startup;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Who may call admission-service's HTTP API: each endpoint checks the principal's roles (docs/security.md). */
@ApplicationScoped
@Startup
public class ApiAccess extends HttpApiAccess {

    @Inject
    AdmissionServiceConfig config;

    @Override
    protected Settings settings() {
        return new Settings("admission-service", config.topics(), config.auth());
    }
}
