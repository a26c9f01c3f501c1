package dev.taskgov.watcher;

import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Ready once every informer has listed its kind, or while a standby replica waits for the lease (it serves the webhook). */
@Readiness
@ApplicationScoped
public class JobWatcherReadiness implements HealthCheck {
    @Inject
    JobWatcher watcher;

    @Override
    public HealthCheckResponse call() {
        return HealthCheckResponse.named("job-watcher-informers").status(watcher.standby() || watcher.synced()).build();
    }
}
