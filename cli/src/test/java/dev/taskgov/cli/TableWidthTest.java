package dev.taskgov.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every table the CLI prints fits 120 columns at the default output, on data as a busy two-cluster deployment answers
 * it (long messages, long ids, several clusters): free text is cut with an ellipsis or wrapped, ids stay whole, and
 * {@code -o wide} shows everything.
 */
@ExtendWith(FixedCliClock.class)
class TableWidthTest {

    static final String DEMO = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1";
    static final String SMALL = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovsmall";

    /** A long workload id, as a team's own naming makes them (the demo pipeline's are shorter). */
    static final String LONG_ID = "team-3-train-llama70b-tune-7f3a9c2e";
    static final String PREEMPTED = "preempted by team-5-train-large-1a2b3c4d (ReclaimLentCapacity): team-5 reclaims 16 accelerators"
            + " of its nominal 80 that team-3 borrowed (team-3 uses 32 of nominal 16 in ml.p5.48xlarge); the preemptor needs"
            + " 2 pods of 8 accelerators in one topology.k8s.aws/network-node-layer-2 domain";
    static final String QUOTA = "needs 16 accelerators of ml.p5.48xlarge; team-1 has 8 of nominal 64 free and may borrow 0"
            + " (DontLend); 3 workloads ahead of it hold 48 accelerators until they finish";

    StubServer admission;
    StubServer topology;
    StubServer quota;

    @BeforeEach
    void start() {
        admission = new StubServer()
                .answer("GET /clusters", 200, """
                        {"count": 2, "clusters": [{"clusterArn": "%s"}, {"clusterArn": "%s"}]}""".formatted(DEMO, SMALL))
                .answer("GET /teams/team-1/pending?cluster=" + enc(DEMO), 200, """
                        {"team": "team-1", "clusterArn": "%s", "pending": 2, "workloads": [
                         {"position": 1, "workloadId": "%s", "priority": 70, "submittedAt": "2026-11-30T10:04:00Z",
                          "reason": "InsufficientQuota", "message": "%s",
                          "startEstimate": {"known": true, "message": "in about 12 min, if running work ends as expected"}},
                         {"position": 2, "workloadId": "team-1-rack-5-pods-0007", "priority": 30, "submittedAt": "2026-11-30T09:57:30Z",
                          "reason": "TopologyPlacementFailed",
                          "message": "topology.k8s.aws/network-node-layer-3 allows to fit only 4 out of 5 pods (every layer-3 domain of ml.p5.48xlarge holds 4 nodes)",
                          "startEstimate": {"known": false, "message": "unknown: no running workload has a known end"}}]}"""
                        .formatted(DEMO, LONG_ID, QUOTA))
                .answer("GET /teams/team-1/pending?cluster=" + enc(SMALL), 200, """
                        {"team": "team-1", "clusterArn": "%s", "pending": 1, "workloads": [
                         {"position": 1, "workloadId": "team-1-small-infer-0001", "priority": 90, "submittedAt": "2026-11-30T10:03:00Z",
                          "reason": "Preempted", "message": "%s", "startEstimate": {"known": false, "message": "unknown"}}]}"""
                        .formatted(SMALL, PREEMPTED))
                .answer("GET /workloads", 200, """
                        [{"workloadId": "%s", "team": "team-3", "clusterArn": "%s", "state": "Pending", "reason": "Preempted",
                          "message": "%s", "submittedAt": "2026-11-30T10:00:00Z", "borrowed": {}},
                         {"workloadId": "team-5-train-large-1a2b3c4d", "team": "team-5", "clusterArn": "%s", "state": "Admitted",
                          "reason": "Admitted", "message": "admitted", "submittedAt": "2026-11-30T10:00:05Z",
                          "borrowed": {"ml.p5.48xlarge": {"accelerators": 16, "vcpu": 384, "memoryGiB": 4096},
                                       "ml.g5.48xlarge": {"accelerators": 8, "vcpu": 192, "memoryGiB": 768}}},
                         {"workloadId": "team-1-small-infer-0001", "team": "team-1", "clusterArn": "%s", "state": "Pending",
                          "reason": "Preempted", "message": "%s", "submittedAt": "2026-11-30T10:03:00Z", "borrowed": {}}]"""
                        .formatted(LONG_ID, DEMO, PREEMPTED, DEMO, SMALL, PREEMPTED))
                .answer("GET /workloads/" + LONG_ID, 200, """
                        {"workloadId": "%s", "team": "team-3", "clusterArn": "%s", "state": "Pending", "reason": "Preempted",
                         "message": "%s", "submittedAt": "2026-11-30T10:00:00Z", "admittedAt": null, "placement": null, "borrowed": {},
                         "history": [
                          {"time": "2026-11-30T10:00:00Z", "state": "Pending", "reason": "Submitted", "message": "queued in hyperpod-ns-team-3-localqueue"},
                          {"time": "2026-11-30T10:00:07Z", "state": "Pending", "reason": "Preempted", "message": "%s"}]}"""
                        .formatted(LONG_ID, DEMO, PREEMPTED, PREEMPTED));
        topology = new StubServer()
                .answer("GET /topology?cluster=" + enc(DEMO), 200, tree("nn-demo"))
                .answer("GET /topology?cluster=" + enc(SMALL), 200, tree("nn-small"));
        quota = new StubServer().answer("GET /audit", 200, """
                {"events": [{"at": "2026-11-30T10:00:00.123456Z", "principal": "team-3", "service": "admission-service",
                  "operation": "SubmitWorkload", "target": "workload %s in cluster %s",
                  "outcome": "Failed: [clusterArn: is required: this deployment governs 2 clusters; name the one the workload runs in]"},
                 {"at": "2026-11-30T10:00:01.5Z", "principal": "kafka:taskgov.workload.pods-ready (admin or a service granted it)",
                  "service": "admission-service", "operation": "ReportPodsReady", "target": "workload team-1-train-7", "outcome": "Allowed"}]}"""
                .formatted(LONG_ID, DEMO));
    }

    @AfterEach
    void stop() {
        admission.close();
        topology.close();
        quota.close();
    }

    @Test
    void queueOfSeveralClustersIsOneTableThatFitsAndWideShowsTheWholeMessages() {
        Cli.Result r = Cli.run("queue", "team-1", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        assertThat(r.out()).startsWith("Team team-1: 3 pending (2 in taskgovdemo1, 1 in taskgovsmall)\nCLUSTER ")
                .contains("taskgovdemo1   1          " + LONG_ID, "team-1-rack-5-pods-0007", "taskgovsmall   1 ", "team-1-small-infer-0001",
                        "InsufficientQuota         needs 16 ...")
                .contains(Table.ELLIPSIS + "\n")
                .doesNotContain(QUOTA);
        assertThat(r.out().lines().filter(l -> l.startsWith("CLUSTER"))).hasSize(1);

        Cli.Result wide = Cli.run("queue", "team-1", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains(QUOTA, PREEMPTED);
    }

    @Test
    void workloadsOfSeveralClustersKeepIdsWholeAndWideAddsTheMessage() {
        Cli.Result r = Cli.run("get", "workloads", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        assertThat(r.out().lines().findFirst().orElseThrow()).startsWith("CLUSTER        NAME ");
        assertThat(r.out()).contains("taskgovdemo1   " + LONG_ID, "taskgovsmall   team-1-small-infer-0001", "ml.p5.48xlarge=16,ml.g5....");

        Cli.Result wide = Cli.run("get", "workloads", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains(PREEMPTED, "ml.g5.48xlarge: 8 accelerators, 192 vCPU, 768 GiB memory");
    }

    @Test
    void describeWrapsLongValuesAndEventMessagesUnderThemselvesNothingLost() {
        Cli.Result r = Cli.run("describe", "workload", LONG_ID, "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        assertThat(r.out()).contains("Cluster:      " + DEMO + "\n", "  Message:    preempted by team-5-train-large-1a2b3c4d");
        String events = r.out().substring(r.out().indexOf("Events:"));
        int column = events.lines().skip(1).findFirst().orElseThrow().indexOf("MESSAGE");
        StringBuilder joined = new StringBuilder();
        events.lines().skip(3).forEach(l -> joined.append(joined.isEmpty() ? "" : " ").append(l.substring(column)));
        assertThat(joined.toString()).isEqualTo(PREEMPTED);
        assertThat(events.lines().skip(3).skip(1)).allSatisfy(l -> assertThat(l.substring(0, column)).isBlank());

        Cli.Result wide = Cli.run("describe", "workload", LONG_ID, "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains("Preempted   " + PREEMPTED);
    }

    @Test
    void topologyOfSeveralClustersIsOneTableOfAcceleratorsAndWideShowsEveryResource() {
        Cli.Result r = Cli.run("get", "topology", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        assertThat(r.out()).startsWith("""
                CLUSTER        DOMAIN       LEVEL     READY   NOT-READY   CAPACITY(ACC)         FREE(ACC)
                taskgovdemo1   (all)        cluster   2       0           16 + 14 mig-1g.10gb   6 + 7 mig-1g.10gb
                taskgovdemo1     nn-demo    layer-1   2       0           16 + 14 mig-1g.10gb   6 + 7 mig-1g.10gb
                taskgovsmall   (all)        cluster   2       0           16 + 14 mig-1g.10gb   6 + 7 mig-1g.10gb
                """);

        Cli.Result wide = Cli.run("get", "topology", "-o", "wide", "--admission-url", admission.url(), "--topology-url", topology.url());
        assertThat(wide.out()).contains("16 accelerators, 384 vCPU, 4096 GiB memory, 14 mig-1g.10gb",
                "taskgovsmall       p5-nn-small-h1   node ");
    }

    @Test
    void auditCutsLongTargetsAndOutcomesAndWideShowsThem() {
        Cli.Result r = Cli.run("audit", "--quota-url", quota.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        // to the second by default
        assertThat(r.out()).contains("\n2026-11-30T10:00:00Z   team-3 ", "SubmitWorkload", "\n2026-11-30T10:00:01Z   kafka:taskgov.",
                Table.ELLIPSIS);

        Cli.Result wide = Cli.run("audit", "-o", "wide", "--quota-url", quota.url());
        assertThat(wide.out()).contains("2026-11-30T10:00:00.123456Z", "workload " + LONG_ID + " in cluster " + DEMO,
                "name the one the workload runs in]", "kafka:taskgov.workload.pods-ready (admin or a service granted it)");
    }

    @Test
    void clustersFitWithManyWorkloadCountsAndWideShowsThemWhole() {
        admission.answer("GET /clusters", 200, """
                {"count": 2, "clusters": [{"clusterArn": "%s", "nodes": 32, "readyNodes": 32,
                  "capacity": {"ml.p5.48xlarge": {"accelerators": 256}}, "quota": {"ml.p5.48xlarge": {"accelerators": 256}},
                  "used": {"ml.p5.48xlarge": {"accelerators": 213}}, "workloads": {"Admitted": 10, "Finished": 229, "Pending": 68}},
                 {"clusterArn": "%s", "nodes": 4, "readyNodes": 4, "capacity": {"ml.p5.48xlarge": {"accelerators": 32}},
                  "quota": {}, "used": {}, "workloads": {}}]}""".formatted(DEMO, SMALL));
        Cli.Result r = Cli.run("get", "clusters", "--admission-url", admission.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertFits(r.out());
        assertThat(r.out()).contains("taskgovdemo1   32/32   ml.p5.48xlarge=256 ", "Admitted=10,Finished=229");
        Cli.Result wide = Cli.run("get", "clusters", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains("Admitted=10,Finished=229,Pending=68", DEMO);
    }

    @Test
    void aTableOfIdsOnlyKeepsThemWholeEvenPastTheWidth() {
        String id = "x".repeat(130);
        java.io.StringWriter s = new java.io.StringWriter();
        new Table("NAME", "MESSAGE").cut("MESSAGE").row(id, "a message").print(new java.io.PrintWriter(s, true));
        assertThat(s.toString()).contains(id + "   a message");
    }

    private static void assertFits(String out) {
        assertThat(out.lines()).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(Table.WIDTH));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }

    private static String tree(String domain) {
        String amounts = """
                "capacity": {"accelerators": 16, "vcpu": 384, "memoryGiB": 4096, "partitions": {"mig-1g.10gb": 14}},
                "free": {"accelerators": 6, "vcpu": 304, "memoryGiB": 3584, "partitions": {"mig-1g.10gb": 7}},
                "readyNodes": 2, "notReadyNodes": 0""";
        return """
                {%s, "domains": [{"level": "topology.k8s.aws/network-node-layer-1", "value": "%s", %s, "children": [],
                  "nodes": [{"name": "p5-%s-h1", "instanceType": "ml.p5.48xlarge", "ready": true,
                    "allocatable": {"accelerators": 8, "vcpu": 192, "memoryGiB": 2048}, "free": {"accelerators": 3}}]}]}"""
                .formatted(amounts, domain, amounts, domain);
    }
}
