package dev.taskgov.topology.ec2;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.ec2.Ec2Client;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The real SDK Ec2Client against a local DescribeInstanceTopology stub. */
class Ec2TopologySourceTest {

    static final List<InstanceTopologyEntry> FIVE = List.of(
            entry("i-01", "pg-a", "nn-1", "nn-b1", "nn-b1-r1"),
            entry("i-02", "pg-a", "nn-1", "nn-b1", "nn-b1-r2"),
            entry("i-03", "pg-b", "nn-1", "nn-b2", "nn-b2-r1"),
            entry("i-04", "pg-b", "nn-2", "nn-b3", "nn-b3-r1"),
            new InstanceTopologyEntry("i-05", "g5.8xlarge", null, List.of()));

    Ec2TopologyStub stub;
    Ec2Client client;

    @BeforeEach
    void start() throws IOException {
        stub = new Ec2TopologyStub();
        stub.setInstances(FIVE);
        stub.setPageSize(2);
    }

    @AfterEach
    void stop() {
        if (client != null) client.close();
        stub.close();
    }

    Ec2TopologySource source(int maxAttempts, Ec2TopologyFilter filter) {
        client = Ec2Clients.create("us-west-2", Optional.of(stub.endpoint()), Optional.of("test"), Optional.of("test"),
                maxAttempts, Duration.ofMillis(10), Duration.ofMillis(50), Duration.ofSeconds(5));
        return new Ec2TopologySource(client, filter);
    }

    @Test
    void readsEveryPageInOrderWithNetworkNodesTopFirst() {
        Map<String, InstanceTopologyEntry> result = source(1, Ec2TopologyFilter.none()).describe();

        assertThat(result).containsOnlyKeys("i-01", "i-02", "i-03", "i-04", "i-05");
        assertThat(List.copyOf(result.values())).isEqualTo(FIVE);
        assertThat(stub.requests).hasSize(3);
        assertThat(stub.requests.get(0)).containsEntry("Action", "DescribeInstanceTopology").doesNotContainKey("NextToken");
        assertThat(stub.requests.get(1)).containsEntry("NextToken", "token-2");
        assertThat(stub.requests.get(2)).containsEntry("NextToken", "token-4");
    }

    @Test
    void retriesAThrottledRequestWithBackoffAndCompletesThePoll() {
        stub.failPage(1, Ec2TopologyStub.Fault.THROTTLE);

        Map<String, InstanceTopologyEntry> result = source(3, Ec2TopologyFilter.none()).describe();

        assertThat(List.copyOf(result.values())).isEqualTo(FIVE);
        assertThat(stub.requests).hasSize(4);
        assertThat(stub.requests.get(1)).isEqualTo(stub.requests.get(2));
    }

    @Test
    void throttlingBeyondTheAttemptsFailsThePollNamingTheCode() {
        stub.failNext(Ec2TopologyStub.Fault.THROTTLE);

        assertThatThrownBy(() -> source(1, Ec2TopologyFilter.none()).describe())
                .isInstanceOf(Ec2PollException.class)
                .hasMessageContaining("Request limit exceeded");
    }

    @Test
    void aMalformedAnswerFailsThePoll() {
        stub.failNext(Ec2TopologyStub.Fault.MALFORMED);

        assertThatThrownBy(() -> source(1, Ec2TopologyFilter.none()).describe())
                .isInstanceOf(Ec2PollException.class)
                .hasMessageStartingWith("DescribeInstanceTopology failed");
    }

    @Test
    void aFailedLaterPageFailsTheWholePollInsteadOfReturningPart() {
        stub.failPage(2, Ec2TopologyStub.Fault.SERVER_ERROR);

        assertThatThrownBy(() -> source(1, Ec2TopologyFilter.none()).describe()).isInstanceOf(Ec2PollException.class);
        assertThat(stub.requests).hasSize(3);
    }

    @Test
    void sendsInstanceIdsAndTheInstanceTypeFilter() {
        Map<String, InstanceTopologyEntry> result = source(1, new Ec2TopologyFilter(List.of("i-02", "i-04"), List.of(),
                List.of("p5.48xlarge"), 5)).describe();

        assertThat(result).containsOnlyKeys("i-02", "i-04");
        assertThat(stub.requests.get(0)).containsEntry("InstanceId.1", "i-02").containsEntry("InstanceId.2", "i-04")
                .containsEntry("Filter.1.Name", "instance-type").containsEntry("Filter.1.Value.1", "p5.48xlarge")
                .containsEntry("MaxResults", "5");
    }

    @Test
    void sendsPlacementGroupNames() {
        Map<String, InstanceTopologyEntry> result = source(1, new Ec2TopologyFilter(List.of(), List.of("pg-b"), List.of(), null)).describe();

        assertThat(result).containsOnlyKeys("i-03", "i-04");
        assertThat(stub.requests.get(0)).containsEntry("GroupName.1", "pg-b");
    }

    static InstanceTopologyEntry entry(String id, String group, String... networkNodes) {
        return new InstanceTopologyEntry(id, "p5.48xlarge", group, List.of(networkNodes));
    }
}
