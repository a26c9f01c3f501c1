package dev.taskgov.admission;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** taskgov admission-service: team queues and every admission decision; publishes admitted, status and preemption requests. */
@OpenAPIDefinition(info = @Info(title = "taskgov admission-service", version = "0.1.0",
        description = "team queues and every admission decision; publishes admitted, status and preemption requests"))
public class AdmissionServiceApplication extends Application {
}
