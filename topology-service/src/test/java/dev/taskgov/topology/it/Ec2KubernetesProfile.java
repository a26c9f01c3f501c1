package dev.taskgov.topology.it;

import dev.taskgov.core.events.KafkaAccess;
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
                "taskgov.topics.topology", TOPIC,
                // A topic of its own, which the broker's grants do not name (the local runtime grants the renamed
                // names it creates; this test renames one itself): the service logs in as the administrator.
                "taskgov.kafka.username", KafkaAccess.ADMIN);
    }
}
