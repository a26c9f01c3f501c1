package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.WorkloadSubmitted;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** get / describe / queue / dry-run / submit against a real HTTP server answering recorded admission-service JSON. */
class AdmissionCommandsTest {

    static final Instant NOW = Instant.parse("2026-11-30T10:05:00Z");
    StubServer admission;

    @BeforeAll
    static void fixedClock() {
        CliCommand.clock = Clock.fixed(NOW, ZoneOffset.UTC);
    }

    @AfterAll
    static void systemClock() {
        CliCommand.clock = Clock.systemUTC();
    }

    @BeforeEach
    void start() {
        admission = new StubServer()
                .answer("GET /clusters", 200, "{\"count\": 1, \"clusters\": [{\"clusterArn\": null}]}")
                .answer("GET /workloads/team-3-train-borrow-x1", 200, json("workload-preempted.json"))
                .answer("GET /workloads/team-a-train-001", 200, json("workload-admitted.json"))
                .answer("GET /workloads/team-a-train-002", 200, json("workload-pending-repeated.json"))
                .answer("GET /workloads/nope", 404, "{\"message\":\"no workload with id 'nope'\",\"errors\":[]}")
                .answer("GET /workloads?team=team-a", 200, json("workloads.json"))
                .answer("GET /workloads?state=Bogus", 400,
                        "{\"message\":\"state must be one of [Pending, Admitted, Finished, Rejected]\",\"errors\":[{\"field\":\"state\",\"rule\":\"unknown state 'Bogus'\"}]}")
                .answer("GET /teams/team-a/pending", 200, json("pending.json"))
                .answer("POST /workloads:dry-run", 200, json("dry-run.json"))
                .answer("POST /workloads", 202, "{\"workloadId\":\"team-a-train-009\",\"message\":\"published; GET /workloads/team-a-train-009 shows its state\"}");
    }

    @AfterEach
    void stop() {
        admission.close();
    }

    @Test
    void describeExplainsAPreemptedWorkloadWithNumbersAndHistory() {
        Cli.Result r = Cli.run("describe", "workload", "team-3-train-borrow-x1", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.err()).isEmpty();
        assertThat(r.out()).isEqualTo("""
                Name:         team-3-train-borrow-x1
                Team:         team-3
                Status:
                  State:      Pending
                  Reason:     Preempted
                  Message:    preempted by team-5-train-large-x1 (ReclaimLentCapacity): team-5 reclaims 16 accelerators of its nominal
                              80 that team-3 borrowed (team-3 uses 32 of nominal 16)
                  Submitted:  2026-11-30T10:00:00Z (5m ago)
                  Admitted:   <none>
                  Borrowed:   nothing (within the team's nominal quota)
                  Placement:  <none>
                Events:
                  AGE     STATE      REASON      MESSAGE
                  5m      Pending    Submitted   queued in hyperpod-ns-team-3-localqueue
                  4m59s   Admitted   Admitted    admitted borrowing 16 accelerators of ml.p5.48xlarge
                  4m53s   Pending    Preempted   preempted by team-5-train-large-x1 (ReclaimLentCapacity): team-5 reclaims 16
                                                 accelerators of its nominal 80 that team-3 borrowed (team-3 uses 32 of nominal 16)
                """);
    }

    @Test
    void describeShowsRepeatedChangesAsOneEventWithCountAndSpanLikeKubectl() {
        Cli.Result r = Cli.run("describe", "workload", "team-a-train-002", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).endsWith("""
                Events:
                  AGE                  STATE     REASON          MESSAGE
                  5m                   Pending   Queued          queued
                  2m (x5 over 4m58s)   Pending   QuotaExceeded   needs 16 accelerators of ml.p5.48xlarge, team-a has 4 free of nominal
                                                                 32 and may borrow 0
                """);
    }

    @Test
    void describeShowsAPendingWorkloadsEstimatedStartWithItsBasis() {
        Cli.Result r = Cli.run("describe", "workload", "team-a-train-002", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        // a value too long for 120 columns continues under itself
        assertThat(r.out()).contains("\n  Start:      in about 12 min, if running work ends as expected (4 ends before it: "
                + "0 declared, 4 learned from finished\n              workloads); 3 workloads ahead of it\n");
    }

    @Test
    void describeShowsPlacementAndBorrowing() {
        Cli.Result r = Cli.run("describe", "workload", "team-a-train-001", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).contains(
                "  Borrowed:   ml.p5.48xlarge: 8 accelerators",
                "  Placement:\n    worker: 10 pods in topology.k8s.aws/network-node-layer-3=nn-b1-r2 (ml.p5.48xlarge) on p5-b1r2h1×8, p5-b1r2h2×2");
    }

    @Test
    void describeJsonIsTheServiceAnswer() throws Exception {
        Cli.Result r = Cli.run("describe", "workload", "team-a-train-001", "-o", "json", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(EventCodec.mapper().readTree(r.out())).isEqualTo(EventCodec.mapper().readTree(json("workload-admitted.json")));
    }

    @Test
    void describeUnknownWorkloadExitsOneWithTheServiceMessage() {
        Cli.Result r = Cli.run("describe", "workload", "nope", "--admission-url", admission.url());

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).isEqualTo("error: no workload with id 'nope'\n");
    }

    @Test
    void getWorkloadsNameYamlAndWideAsKubectl() throws Exception {
        Cli.Result names = Cli.run("get", "workloads", "--team", "team-a", "-o", "name", "--admission-url", admission.url());
        assertThat(names.exit()).isZero();
        assertThat(names.out()).startsWith("workload/team-a-train-001\nworkload/team-a-rack-002\n");
        Cli.Result yaml = Cli.run("get", "workloads", "--team", "team-a", "-o", "yaml", "--admission-url", admission.url());
        assertThat(new com.fasterxml.jackson.dataformat.yaml.YAMLMapper().readTree(yaml.out()))
                .isEqualTo(EventCodec.mapper().readTree(json("workloads.json")));
        Cli.Result wide = Cli.run("get", "workloads", "--team", "team-a", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out().lines().findFirst().orElseThrow()).endsWith("AGE     MESSAGE");
        Cli.Result bad = Cli.run("get", "workloads", "-o", "xml", "--admission-url", admission.url());
        assertThat(bad.exit()).isEqualTo(2);
        assertThat(bad.err()).contains("table, wide, json, yaml, name");
    }

    @Test
    void getWorkloadsIsAKubectlTable() {
        Cli.Result r = Cli.run("get", "workloads", "--team", "team-a", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("""
                NAME               TEAM     STATE      REASON                    BORROWED(ACC)      AGE
                team-a-train-001   team-a   Admitted   Admitted                  ml.p5.48xlarge=8   5m
                team-a-rack-002    team-a   Pending    TopologyPlacementFailed   <none>             7m30s
                """);
    }

    @Test
    void anInvalidStateIsInvalidInputNamingTheField() {
        Cli.Result r = Cli.run("get", "workloads", "--state", "Bogus", "--admission-url", admission.url());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: state must be one of [Pending, Admitted, Finished, Rejected]\n  state: unknown state 'Bogus'\n");
    }

    @Test
    void queueShowsPositionsTheEstimatedStartAndWhyEachWaits() {
        Cli.Result r = Cli.run("queue", "hyperpod-ns-team-a", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("""
                Team team-a: 2 pending
                POSITION   NAME               START             REASON                    MESSAGE
                1          team-a-infer-003   in about 12 min   InsufficientQuota         needs 16 accelerators of ml.p5.48xlarge; te...
                2          team-a-rack-002    unknown           TopologyPlacementFailed   topology.k8s.aws/network-node-layer-3 allow...
                """);
        // -o wide: priority and age too, the messages whole
        Cli.Result wide = Cli.run("queue", "hyperpod-ns-team-a", "-o", "wide", "--admission-url", admission.url());
        assertThat(wide.out()).contains("POSITION   NAME               PRIORITY   AGE     START ", "team-a-infer-003   90         60s ","InsufficientQuota         needs 16 accelerators of ml.p5.48xlarge; team-a has 8 of nominal 64 free and may borrow 0 (DontLend)\n",
                "TopologyPlacementFailed   topology.k8s.aws/network-node-layer-3 allows to fit only 4 out of 5 pods\n");
    }

    @Test
    void queueOfATeamNoClusterKnowsIsAnErrorNamingTheTeamNotAnEmptyQueue() {
        admission.answer("GET /teams/team-zz/pending", 200, "{\"team\":\"team-zz\",\"pending\":0,\"workloads\":[]}")
                .answer("GET /teams/team-b/pending", 200, "{\"team\":\"team-b\",\"pending\":0,\"workloads\":[]}")
                .answer("GET /teams", 200, "{\"count\":1,\"teams\":[{\"team\":\"team-b\",\"pending\":0,\"pendingByReason\":{},"
                        + "\"instanceTypes\":{\"ml.p5.48xlarge\":{\"nominal\":{\"accelerators\":8}}}}]}");

        Cli.Result unknown = Cli.run("queue", "team-zz", "--admission-url", admission.url());
        assertThat(unknown.exit()).isEqualTo(CliException.FAILED);
        assertThat(unknown.out()).isEmpty();
        assertThat(unknown.err()).isEqualTo("error: team 'team-zz' is not known on the governed cluster: it has no compute quota there and"
                + " nothing queued (taskgov get teams lists the known teams; taskgov quota create gives a team a quota)\n");
        // a known team with nothing queued is an empty queue, as before
        Cli.Result idle = Cli.run("queue", "team-b", "--admission-url", admission.url());
        assertThat(idle).isEqualTo(new Cli.Result(0, "Team team-b: 0 pending\n", ""));
    }

    @Test
    void finishOrDeleteOfAnUnknownWorkloadIsAnErrorNamingItAndWritesNothing() {
        // the administrator's profile writes the topic (here a broker that is not there: a write would fail differently)
        String[] kafka = {"--admission-url", admission.url(), "--kafka-bootstrap", "127.0.0.1:1", "--kafka-retry", "0"};
        Cli.Result finish = Cli.run(concat(new String[] {"finish", "nope"}, kafka));
        assertThat(finish.exit()).isEqualTo(CliException.FAILED);
        assertThat(finish.out()).isEmpty();
        assertThat(finish.err()).isEqualTo("error: no workload with id 'nope': admission-service knows none, so nothing was finished"
                + " (taskgov get workloads lists them)\n");
        Cli.Result delete = Cli.run(concat(new String[] {"delete", "hyp-pytorch-job", "--job-name", "nope"}, kafka));
        assertThat(delete).isEqualTo(finish);

        admission.answer("GET /workloads/team-a-done", 200, "{\"workloadId\":\"team-a-done\",\"team\":\"team-a\",\"state\":\"Finished\","
                + "\"reason\":\"Succeeded\",\"message\":\"finished\",\"history\":[]}");
        Cli.Result ended = Cli.run(concat(new String[] {"delete", "hyp-pytorch-job", "--job-name", "team-a-done"}, kafka));
        assertThat(ended).isEqualTo(new Cli.Result(0, "workload/team-a-done had already ended (Finished, Succeeded); nothing changes\n", ""));
    }

    private static String[] concat(String[] a, String[] b) {
        String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, all, a.length, b.length);
        return all;
    }

    @Test
    void dryRunSendsTheSubmissionAndShowsVictims() throws Exception {
        Cli.Result r = Cli.run("dry-run", "--job-name", "team-5-big", "--team", "team-5", "--instance-type", "ml.p5.48xlarge",
                "--pods", "1", "--accelerators", "8", "--preferred-topology", "topology.k8s.aws/network-node-layer-2",
                "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("""
                Workload:   team-5-big (team team-5)
                Verdict:    AdmittedAfterPreemption
                Borrowing:  nothing
                Placement:
                  worker: 1 pod in topology.k8s.aws/network-node-layer-2=nn-b2 (ml.p5.48xlarge) on p5-b2r1h1×1
                Would preempt:
                WORKLOAD                 TEAM     REASON                MESSAGE
                team-3-train-borrow-x1   team-3   ReclaimLentCapacity   team-3 borrows 16 accelerators
                """);
        StubServer.Request sent = admission.requests.get(0);
        assertThat(sent.uri()).isEqualTo("/workloads:dry-run");
        // signed with the profile's key (SigV4, as admission-service verifies it)
        assertThat(sent.header("Authorization")).startsWith("AWS4-HMAC-SHA256 Credential=" + Cli.KEY.accessKeyId() + "/")
                .contains("SignedHeaders=", "Signature=");
        assertThat(sent.header("X-Amz-Date")).isNotBlank();
        assertThat(EventCodec.read(sent.body(), WorkloadSubmitted.class)).isEqualTo(new WorkloadSubmitted("team-5-big",
                "hyperpod-ns-team-5", "hyperpod-ns-team-5-localqueue", null, "PyTorchJob", NOW,
                List.of(new PodSetSpec("worker", 1, "ml.p5.48xlarge", ManifestTranslationTest.amounts("8", null, null), null,
                        "topology.k8s.aws/network-node-layer-2"))));
    }

    @Test
    void submitFromTheSeedManifestPostsTheTranslatedWorkload() throws Exception {
        Cli.Result r = Cli.run("submit", "-f", ManifestTranslationTest.manifest("seed-000-pytorchjob.yaml"), "--instance-type", "ml.p5.48xlarge",
                "--job-name", "team-a-train-009", "--max-retry", "2", "--expected-runtime", "1h30m", "--admission-url", admission.url());

        assertThat(r.exit()).isZero();
        assertThat(r.out()).isEqualTo("workload/team-a-train-009 submitted (team team-name, 2 pod sets)\n"
                + "published; GET /workloads/team-a-train-009 shows its state\n");
        JsonNode body = EventCodec.mapper().readTree(admission.requests.get(0).body());
        assertThat(admission.requests.get(0).header("Content-Type")).isEqualTo("application/json");
        assertThat(EventCodec.read(body, WorkloadSubmitted.class)).isEqualTo(new WorkloadSubmitted("team-a-train-009",
                "hyperpod-ns-team-name", "hyperpod-ns-team-name-localqueue", null, "PyTorchJob", NOW, List.of(
                new PodSetSpec("master", 1, "ml.p5.48xlarge", ManifestTranslationTest.amounts(null, null, null), null, null),
                new PodSetSpec("worker", 10, "ml.p5.48xlarge", ManifestTranslationTest.amounts(null, "1", "0.1953125"), null, null)),
                java.util.Map.of(WorkloadSubmitted.IMAGE_ANNOTATION, "docker.io/kubeflowkatib/pytorch-mnist:v1beta1-45c5727",
                        WorkloadSubmitted.MAX_RETRY_ANNOTATION, "2", WorkloadSubmitted.EXPECTED_RUNTIME_ANNOTATION, "PT1H30M")));
    }

    @Test
    void anExpectedRuntimeThatIsNoDurationIsRefusedBeforeAnythingIsSent() {
        Cli.Result r = Cli.run("submit", "--job-name", "j", "--team", "team-a", "--instance-type", "ml.p5.48xlarge",
                "--expected-runtime", "soon", "--admission-url", admission.url());
        assertThat(r).isEqualTo(new Cli.Result(2, "", "error: --expected-runtime: must be a duration greater than zero such as "
                + "90m, 2h, 1h30m or PT2H, was 'soon'\n"));
        assertThat(admission.requests).isEmpty();
    }

    @Test
    void aNegativeMaxRetryIsRefusedBeforeAnythingIsSent() {
        Cli.Result r = Cli.run("submit", "--job-name", "j", "--team", "team-a", "--instance-type", "ml.p5.48xlarge", "--max-retry", "-1",
                "--admission-url", admission.url());
        assertThat(r).isEqualTo(new Cli.Result(2, "", "error: --max-retry: must not be negative, was -1\n"));
        assertThat(admission.requests).isEmpty();
    }

    @Test
    void aRefusedSubmissionExitsTwoWithEachFieldAndRule() {
        admission.answer("POST /workloads", 400, json("submit-refused.json"));

        Cli.Result r = Cli.run("submit", "--job-name", "j", "--team", "team-a", "--instance-type", "ml.x.huge", "--accelerators", "1",
                "--admission-url", admission.url());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("error: the workload breaks 1 rule(s)\n  podSets[0].instanceType: unknown instance type 'ml.x.huge'; known: ml.p5.48xlarge\n");
    }

    @Test
    void localRulesAreCheckedBeforeAnythingIsSent() {
        Cli.Result r = Cli.run("submit", "--job-name", "j", "--team", "team-a", "--instance-type", "ml.p5.48xlarge", "--pods", "0",
                "--admission-url", admission.url());

        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err()).startsWith("error: the workload breaks 1 rule(s):\n  podSets[0].count: ");
        assertThat(admission.requests).isEmpty();
    }

    @Test
    void aWorkloadIdThatBreaksTheIdRuleIsRefusedBeforeAnythingIsSent() {
        Cli.Result submit = Cli.run("submit", "--job-name", "../../etc/passwd", "--team", "team-a", "--instance-type", "ml.p5.48xlarge",
                "--pods", "1", "--admission-url", admission.url());
        assertThat(submit.exit()).isEqualTo(2);
        assertThat(submit.err()).startsWith("error: the workload breaks 1 rule(s):\n  workloadId: must be at most 253 characters");
        Cli.Result describe = Cli.run("describe", "workload", "Team_A", "--admission-url", admission.url());
        assertThat(describe.exit()).isEqualTo(2);
        assertThat(describe.err()).startsWith("error: workload id: must be at most 253 characters").contains("'Team_A'");
        Cli.Result finish = Cli.run("finish", "x".repeat(300), "--kafka-bootstrap", "127.0.0.1:1");
        assertThat(finish.exit()).isEqualTo(2);
        assertThat(finish.err()).contains("workload id: ", "was 300 characters");
        assertThat(admission.requests).isEmpty();
    }

    @Test
    void missingRequiredFlagsAreUsageErrors() {
        assertThat(Cli.run("submit", "--team", "team-a")).isEqualTo(new Cli.Result(2, "", "error: --job-name is required (or -f FILE)\n"));
        assertThat(Cli.run("submit", "--job-name", "j", "--team", "a", "--instance-type", "t", "--vcpu", "lots"))
                .isEqualTo(new Cli.Result(2, "", "error: --vcpu: 'lots' is not a Kubernetes quantity (e.g. 4, 500m, 200Mi, 32Gi)\n"));
        Cli.Result unknownOption = Cli.run("get", "workloads", "--colour");
        assertThat(unknownOption.exit()).isEqualTo(2);
        assertThat(unknownOption.err()).startsWith("Unknown option: '--colour'");
    }

    @Test
    void anUnreachableServiceExitsOneAndSaysWhereItLooked() throws IOException {
        int closedPort;
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            closedPort = s.getLocalPort();
        }
        Cli.Result r = Cli.run("get", "workloads", "--admission-url", "http://127.0.0.1:" + closedPort);

        assertThat(r.exit()).isEqualTo(1);
        assertThat(r.err()).startsWith("error: cannot reach admission-service at http://127.0.0.1:" + closedPort + " (ConnectException");
    }

    static String json(String name) {
        try (var in = AdmissionCommandsTest.class.getResourceAsStream("/admission/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
