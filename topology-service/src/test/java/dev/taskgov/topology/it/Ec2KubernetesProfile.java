package dev.taskgov.topology.it;

import io.quarkus.test.junit.QuarkusTestProfile;

import java.util.Map;

/** EC2 (the local stub) and Kubernetes (fabric8's mock API server) together; polls only when the test asks. */
public class Ec2KubernetesProfile implements QuarkusTestProfile {

    static final String TOPIC = "taskgov.topology.it-ec2-kubernetes";

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "taskgov.topology.source", "ec2,kubernetes",
                "taskgov.topology.poll-interval", "1h",
                "taskgov.topology.ec2.max-attempts", "2",
                "taskgov.topology.ec2.retry-base-delay", "10ms",
                "taskgov.topology.ec2.retry-max-delay", "50ms",
                "taskgov.topics.topology", TOPIC);
    }
}
