package dev.taskgov.quota;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** taskgov quota-service: compute quotas and the cluster scheduler config (SageMaker-compatible API); publishes taskgov.quota. */
@OpenAPIDefinition(info = @Info(title = "taskgov quota-service", version = "0.1.0",
        description = "compute quotas and the cluster scheduler config (SageMaker-compatible API); publishes taskgov.quota"))
public class QuotaServiceApplication extends Application {
}
