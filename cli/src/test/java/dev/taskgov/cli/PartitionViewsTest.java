package dev.taskgov.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** get teams and get topology show accelerator partitions beside accelerators, from the services' answers. */
class PartitionViewsTest {

    StubServer admission;
    StubServer topology;

    @BeforeEach
    void start() {
        admission = new StubServer().answer("GET /clusters", 200, "{\"count\": 0, \"clusters\": []}").answer("GET /teams", 200, """
                {"clusterArn": null, "count": 1, "teams": [{"team": "a", "pending": 0, "pendingByReason": {}, "instanceTypes": {
                  "ml.p5.48xlarge": {"nominal": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0, "partitions": {"mig-1g.10gb": 7}},
                                     "used": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0, "partitions": {"mig-1g.10gb": 10}},
                                     "borrowed": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0, "partitions": {"mig-1g.10gb": 3}},
                                     "lent": {"accelerators": 0, "vcpu": 0, "memoryGiB": 0}}}}]}""");
        topology = new StubServer().answer("GET /topology", 200, """
                {"capacity": {"accelerators": 0, "vcpu": 192, "memoryGiB": 2048, "partitions": {"mig-1g.10gb": 7}},
                 "free": {"accelerators": 0, "vcpu": 192, "memoryGiB": 2048, "partitions": {"mig-1g.10gb": 4}},
                 "readyNodes": 1, "notReadyNodes": 0, "domains": []}""");
    }

    @AfterEach
    void stop() {
        admission.close();
        topology.close();
    }

    @Test
    void getTeamsShowsPartitionsBesideAccelerators() {
        Cli.Result r = Cli.run("get", "teams", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                TEAM   INSTANCE-TYPE    NOMINAL(ACC)        USED                 BORROWED            LENT   PENDING
                a      ml.p5.48xlarge   0 + 7 mig-1g.10gb   0 + 10 mig-1g.10gb   0 + 3 mig-1g.10gb   0      0
                """);
        Cli.Result wide = Cli.run("get", "teams", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains("0 + 7 mig-1g.10gb/0/0");
    }

    @Test
    void getTopologyShowsPartitionsInCapacityAndFree() {
        Cli.Result r = Cli.run("get", "topology", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).contains("0 + 7 mig-1g.10gb", "0 + 4 mig-1g.10gb");
        Cli.Result wide = Cli.run("get", "topology", "-o", "wide", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(wide.out()).contains("0 accelerators, 192 vCPU, 2048 GiB memory, 7 mig-1g.10gb",
                "0 accelerators, 192 vCPU, 2048 GiB memory, 4 mig-1g.10gb");
    }
}
