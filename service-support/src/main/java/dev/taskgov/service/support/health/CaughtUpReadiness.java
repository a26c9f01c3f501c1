package dev.taskgov.service.support.health;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;

/**
 * A readiness check that is up once what it waits for has caught up: down with the reason in the check's data
 * ({@code reason}) while {@link #notReady()} names one.
 */
public abstract class CaughtUpReadiness implements HealthCheck {

    private final String name;

    protected CaughtUpReadiness(String name) {
        this.name = name;
    }

    /** Why the service is not ready yet, or null once it is. */
    protected abstract String notReady();

    @Override
    public HealthCheckResponse call() {
        String notReady = notReady();
        HealthCheckResponseBuilder b = HealthCheckResponse.named(name).status(notReady == null);
        return notReady == null ? b.build() : b.withData("reason", notReady).build();
    }
}
