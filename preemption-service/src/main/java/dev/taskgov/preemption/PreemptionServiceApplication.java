package dev.taskgov.preemption;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** taskgov preemption-service: every preemption decision (which running workloads to evict, and why); publishes taskgov.workload.preempted. */
@OpenAPIDefinition(info = @Info(title = "taskgov preemption-service", version = "0.1.0",
        description = "every preemption decision (which running workloads to evict, and why); publishes taskgov.workload.preempted"))
public class PreemptionServiceApplication extends Application {
}
