package dev.taskgov.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** get teams, get topology and --watch, against real HTTP servers answering recorded service output. */
@org.junit.jupiter.api.extension.ExtendWith(FixedCliClock.class)
class CliHabitsTest {

    static final String DEMO = "arn:aws:sagemaker:us-west-2:123456789012:cluster/a1b2c3d4e5f6";

    StubServer admission;
    StubServer topology;

    @BeforeEach
    void start() {
        admission = new StubServer().answer("GET /teams", 200, resource("teams.json"))
                .answer("GET /clusters", 200, "{\"count\": 1, \"clusters\": [{\"clusterArn\": \"" + DEMO + "\"}]}")
                .answer("GET /teams?cluster=" + DEMO.replace(":", "%3A").replace("/", "%2F"), 200, resource("teams.json"));
        topology = new StubServer().answer("GET /topology", 200, resource("topology.json"))
                .answer("GET /topology?cluster=" + DEMO.replace(":", "%3A").replace("/", "%2F"), 200, resource("topology.json"));
    }

    @AfterEach
    void stop() {
        admission.close();
        topology.close();
    }

    @Test
    void getClustersShowsAClusterWithoutQuotasAsAFreshPlatformAnswersIt() {
        String fresh = """
                {"count": 1, "clusters": [{"clusterArn": "%s", "nodes": 4, "readyNodes": 4, "teams": [], "fairShare": true,
                  "priorityClasses": {}, "capacity": {"ml.p5.48xlarge": {"accelerators": 32, "vcpu": 768, "memoryGiB": 8192}},
                  "quota": {}, "used": {}, "workloads": {}}]}""".formatted(DEMO);
        admission.answer("GET /clusters", 200, fresh);
        Cli.Result r = Cli.run("get", "clusters", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                CLUSTER        NODES   CAPACITY(ACC)       QUOTA(ACC)   USED(ACC)   WORKLOADS
                a1b2c3d4e5f6   4/4     ml.p5.48xlarge=32   -            -           -
                """);
        Cli.Result wide = Cli.run("get", "clusters", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains(DEMO, "4/4", "32 accelerators, 768 vCPU, 8192 GiB memory", "Enabled");
    }

    @Test
    void readsWithoutAClusterCoverEveryGovernedClusterInOneTable() {
        String second = "arn:aws:sagemaker:us-west-2:123456789012:cluster/ffffeeeedddd";
        admission.answer("GET /clusters", 200, """
                {"count": 2, "clusters": [{"clusterArn": "%s"}, {"clusterArn": "%s"}]}""".formatted(DEMO, second));
        admission.answer("GET /teams?cluster=" + second.replace(":", "%3A").replace("/", "%2F"), 200, """
                {"clusterArn": "%s", "teams": [{"team": "team-z", "pending": 1, "pendingByReason": {"QuotaExceeded": 1},
                 "instanceTypes": {"ml.g5.8xlarge": {"nominal": {"accelerators": 4}, "used": {"accelerators": 1},
                  "borrowed": {"accelerators": 0}, "lent": {"accelerators": 0}}}}]}""".formatted(second));
        Cli.Result r = Cli.run("get", "teams", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.out()).isEqualTo("""
                CLUSTER        TEAM     INSTANCE-TYPE    NOMINAL(ACC)   USED     BORROWED   LENT     PENDING
                a1b2c3d4e5f6   team-a   ml.p5.48xlarge   64             8        0          14.1     2
                a1b2c3d4e5f6   team-b   ml.p5.48xlarge   16             32       16         0        0
                a1b2c3d4e5f6   team-c   <none>           <none>         <none>   <none>     <none>   2
                ffffeeeedddd   team-z   ml.g5.8xlarge    4              1        0          0        1
                """);
        // a named cluster narrows the read to it
        Cli.Result named = Cli.run("get", "teams", "--cluster", second, "--admission-url", admission.url());
        assertThat(named.out()).contains("team-z").doesNotContain("team-a").doesNotContain("CLUSTER");
    }

    @Test
    void getTeamsShowsNominalUsedBorrowedLentAndPendingPerTeam() {
        Cli.Result r = Cli.run("get", "teams", "--admission-url", admission.url());
        Cli.Result inCluster = Cli.run("get", "teams", "--cluster", DEMO, "--admission-url", admission.url());

        assertThat(r.err()).isEmpty();
        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("""
                TEAM     INSTANCE-TYPE    NOMINAL(ACC)   USED     BORROWED   LENT     PENDING
                team-a   ml.p5.48xlarge   64             8        0          14.1     2
                team-b   ml.p5.48xlarge   16             32       16         0        0
                team-c   <none>           <none>         <none>   <none>     <none>   2
                """);
        assertThat(inCluster.out()).isEqualTo(r.out());
        assertThat(admission.requests).extracting(StubServer.Request::uri)
                .containsExactly("/clusters", "/teams", "/teams?cluster=" + DEMO.replace(":", "%3A").replace("/", "%2F"));
        Cli.Result badCluster = Cli.run("get", "teams", "--cluster", "not-an-arn", "--admission-url", admission.url());
        assertThat(badCluster.exit()).isNotZero();
        assertThat(badCluster.err()).contains("--cluster:");
        // the CLI signs every request it makes, these too
        admission.requests.forEach(CliHabitsTest::assertSigned);
    }

    @Test
    void getTeamsWideJsonAndName() throws Exception {
        Cli.Result wide = Cli.run("get", "teams", "-o", "wide", "--team", "team-a", "--admission-url", admission.url());
        assertThat(wide.out()).isEqualTo("""
                TEAM     INSTANCE-TYPE    NOMINAL(ACC/VCPU/GIB)   USED          BORROWED   LENT                PENDING   PENDING-REASONS
                team-a   ml.p5.48xlarge   64/1536/16384           8/96.5/1024   0/0/0      14.1/338.6/3611.3   2         QuotaExceeded=1,TopologyPlacementFailed=1
                """);

        Cli.Result json = Cli.run("get", "teams", "-o", "json", "--team", "team-b", "--admission-url", admission.url());
        assertThat(Json.mapper().readTree(json.out())).isEqualTo(Json.mapper().readTree("""
                {"clusterArn":"arn:aws:sagemaker:us-west-2:123456789012:cluster/a1b2c3d4e5f6","count":1,
                 "teams":[{"team":"team-b","pending":0,"pendingByReason":{},"instanceTypes":{"ml.p5.48xlarge":{
                  "nominal":{"accelerators":16,"vcpu":384,"memoryGiB":4096},"used":{"accelerators":32,"vcpu":384,"memoryGiB":4096},
                  "borrowed":{"accelerators":16,"vcpu":0,"memoryGiB":0},"lent":{"accelerators":0,"vcpu":0,"memoryGiB":0}}}}]}
                """));

        Cli.Result names = Cli.run("get", "teams", "-o", "name", "--admission-url", admission.url());
        assertThat(names.out()).isEqualTo("team/team-a\nteam/team-b\nteam/team-c\n");
    }

    @Test
    void getTopologyShowsTheTreeAndWithWideTheNodes() {
        Cli.Result r = Cli.run("get", "topology", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertSigned(topology.requests.get(0));
        assertThat(r.out()).isEqualTo("""
                DOMAIN             LEVEL     READY   NOT-READY   CAPACITY(ACC)   FREE(ACC)
                (all)              cluster   2       1           16              6
                  nn-a             layer-1   2       1           16              6
                    nn-a-b1        layer-2   2       1           16              6
                      nn-a-b1-r1   layer-3   2       1           16              6
                """);

        // with several clusters, --cluster names the one to show
        Cli.Result inCluster = Cli.run("get", "topology", "--cluster", DEMO, "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(inCluster.exit()).as(inCluster.err()).isZero();
        assertThat(inCluster.out()).isEqualTo(r.out());
        assertThat(topology.requests.get(1).uri()).isEqualTo("/topology?cluster=" + DEMO.replace(":", "%3A").replace("/", "%2F"));

        Cli.Result wide = Cli.run("get", "topology", "-o", "wide", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(wide.out()).endsWith("""
                      nn-a-b1-r1   layer-3   2       1           16 accelerators, 384 vCPU, 4096 GiB memory   6 accelerators, 304 vCPU, 3584 GiB memory   <none>
                        p5-h1      node      1       0           8 accelerators, 192 vCPU, 2048 GiB memory    0 accelerators, 128 vCPU, 1536 GiB memory   ml.p5.48xlarge
                        p5-h2      node      1       0           8 accelerators, 192 vCPU, 2048 GiB memory    6 accelerators, 176 vCPU, 2048 GiB memory   ml.p5.48xlarge
                        p5-h3      node      0       1           8 accelerators, 192 vCPU, 2048 GiB memory    nothing                                     ml.p5.48xlarge
                """);

        Cli.Result names = Cli.run("get", "topology", "-o", "name", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(names.out()).isEqualTo("node/p5-h1\nnode/p5-h2\nnode/p5-h3\n");
    }

    @Test
    void watchRedrawsWhenTheAnswerChangesAndStopsAfterTheCount() {
        String pending = "[{\"workloadId\":\"team-a-w1\",\"team\":\"team-a\",\"state\":\"Pending\",\"reason\":\"Queued\",\"submittedAt\":\"2026-11-30T10:00:00Z\",\"borrowed\":{}}]";
        String admitted = pending.replace("Pending", "Admitted").replace("Queued", "Admitted");
        admission.answerInTurn("GET /workloads", pending, pending, admitted);

        Cli.Result r = Cli.run("get", "workloads", "--watch", "--watch-interval", "0", "--watch-count", "4", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(admission.requests).hasSize(5); // the governed clusters once, then the workloads on every poll;
        assertThat(r.out()).isEqualTo("""
                NAME        TEAM     STATE     REASON   BORROWED(ACC)   AGE
                team-a-w1   team-a   Pending   Queued   <none>          5m

                NAME        TEAM     STATE      REASON     BORROWED(ACC)   AGE
                team-a-w1   team-a   Admitted   Admitted   <none>          5m
                """);
    }

    @Test
    void watchOnQueueAndDescribeKeepsPollingThroughAnOutage() {
        admission.answerInTurn("GET /teams/team-a/pending", "{\"team\":\"team-a\",\"pending\":0,\"workloads\":[]}");
        Cli.Result queue = Cli.run("queue", "team-a", "-w", "--watch-interval", "0", "--watch-count", "3", "--admission-url", admission.url());
        assertThat(queue.out()).isEqualTo("Team team-a: 0 pending\n");
        // the governed clusters are read once, then the queue on every poll (and, the first queue being empty, once whether
        // the team is known)
        assertThat(admission.requests).extracting(StubServer.Request::uri)
                .containsExactly("/clusters", "/teams/team-a/pending", "/teams", "/teams/team-a/pending", "/teams/team-a/pending");

        admission.answers.put("GET /workloads/team-a-w1", new StubServer.Answer(503, "application/json", "{\"message\":\"not ready\"}"));
        Cli.Result describe = Cli.run("describe", "workload", "team-a-w1", "-w", "--watch-interval", "0", "--watch-count", "2",
                "--admission-url", admission.url());
        assertThat(describe.exit()).isZero();
        assertThat(describe.out()).isEqualTo("error: admission-service answered 503 to GET /workloads/team-a-w1: not ready\n");
    }

    @Test
    void describeShowsWhatWasRecordedOnTheWorkload() {
        admission.answer("GET /workloads/sample-pytorch-job", 200, """
                {"workloadId":"sample-pytorch-job","team":"team-name","state":"Pending","reason":"Queued","message":"queued",
                 "submittedAt":"2026-11-30T10:04:00Z","admittedAt":null,"placement":null,"borrowed":{},"history":[],
                 "annotations":{"taskgov.dev/image":"123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest","taskgov.dev/max-retry":"1"}}
                """);

        Cli.Result r = Cli.run("describe", "workload", "sample-pytorch-job", "--admission-url", admission.url());

        assertThat(r.out()).startsWith("""
                Name:         sample-pytorch-job
                Team:         team-name
                Annotations:
                  taskgov.dev/image: 123456789012.dkr.ecr.us-west-2.amazonaws.com/ptjob:latest
                  taskgov.dev/max-retry: 1
                Status:
                """);
        assertThat(r.out()).contains("\n  Retries:    0 of 1 (queued again after a failure)\n");
    }

    @Test
    void watchRefusesABadCount() {
        Cli.Result r = Cli.run("queue", "team-a", "-w", "--watch-count", "0", "--admission-url", admission.url());
        assertThat(r.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(r.err()).isEqualTo("error: --watch-count: must be at least 1, was 0\n");
    }

    static String resource(String name) {
        try (var in = CliHabitsTest.class.getResourceAsStream("/habits/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Signed with the profile's key (SigV4, as the services verify it). */
    private static void assertSigned(StubServer.Request sent) {
        assertThat(sent.header("Authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + Cli.KEY.accessKeyId() + "/")
                .contains("SignedHeaders=", "Signature=");
    }
}
