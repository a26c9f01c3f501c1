package dev.taskgov.topology.it;

import dev.taskgov.topology.ec2.Ec2TopologyStub;
import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;

/** Starts the DescribeInstanceTopology stub before the application and points the EC2 client at it. */
public class Ec2StubResource implements QuarkusTestResourceLifecycleManager {

    static volatile Ec2TopologyStub stub;

    @Override
    public Map<String, String> start() {
        try {
            stub = new Ec2TopologyStub();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        stub.setPageSize(2);
        return Map.of("taskgov.topology.ec2.endpoint", stub.endpoint().toString(),
                "taskgov.topology.ec2.access-key-id", "test",
                "taskgov.topology.ec2.secret-access-key", "test");
    }

    @Override
    public void stop() {
        if (stub != null) stub.close();
    }
}
