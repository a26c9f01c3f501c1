package dev.taskgov.topology;

import jakarta.ws.rs.core.Application;

import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;

/** taskgov topology-service: node inventory and network topology (EC2 DescribeInstanceTopology, Kubernetes nodes); publishes taskgov.topology. */
@OpenAPIDefinition(info = @Info(title = "taskgov topology-service", version = "0.1.0",
        description = "node inventory and network topology (EC2 DescribeInstanceTopology, Kubernetes nodes); publishes taskgov.topology"))
public class TopologyServiceApplication extends Application {
}
