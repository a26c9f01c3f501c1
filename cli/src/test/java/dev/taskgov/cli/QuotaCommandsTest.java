package dev.taskgov.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.taskgov.core.events.EventCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** quota commands through the AWS SDK's SageMakerClient against a real HTTP server answering recorded SageMaker JSON. */
class QuotaCommandsTest {

    StubServer sagemaker;

    @BeforeEach
    void start() {
        sagemaker = new StubServer()
                .answerAws("CreateComputeQuota", 200, "{\"ComputeQuotaArn\":\"arn:aws:sagemaker:us-west-2:000000000000:compute-quota/q3abc\",\"ComputeQuotaId\":\"q3abc\"}")
                .answerAws("DescribeComputeQuota", 200, json("describe-team-3.json"))
                .answerAws("UpdateComputeQuota", 200, "{\"ComputeQuotaArn\":\"arn:aws:sagemaker:us-west-2:000000000000:compute-quota/q3abc\",\"ComputeQuotaVersion\":3}")
                .answerAws("DeleteComputeQuota", 200, "{}");
    }

    @AfterEach
    void stop() {
        sagemaker.close();
    }

    @Test
    void createFromCliInputJsonSendsTheFileAsTheSageMakerRequest() throws Exception {
        Cli.Result r = Cli.run("quota", "create", "--cli-input-json", "file://" + path("create-team-3.json"), "--quota-url", sagemaker.url());

        assertThat(r).isEqualTo(new Cli.Result(0, "computequota/q3abc created (arn:aws:sagemaker:us-west-2:000000000000:compute-quota/q3abc)\n", ""));
        StubServer.Request sent = sagemaker.requests.get(0);
        assertThat(sent.header("X-Amz-Target")).isEqualTo("SageMaker.CreateComputeQuota");
        assertThat(sent.header("Content-Type")).isEqualTo("application/x-amz-json-1.1");
        assertThat(tree(sent.body())).isEqualTo(tree(json("create-team-3.json")));
    }

    @Test
    void unknownMembersOfCliInputJsonAreRefusedWithTheirPathAndNothingIsSent() {
        Cli.Result unknown = Cli.run("quota", "create", "--quota-url", sagemaker.url(), "--cli-input-json",
                "{\"Name\": \"q\", \"ComputeQuotaConfig\": {\"ComputeQuotaResources\": [{\"InstanceType\": \"ml.p5.48xlarge\", \"vCpu\": 2}]}}");
        assertThat(unknown.exit()).isEqualTo(CliException.INVALID_INPUT);
        assertThat(unknown.err()).contains("$.ComputeQuotaConfig.ComputeQuotaResources[0].vCpu: unknown member (did you mean VCpu?)");
        Cli.Result top = Cli.run("quota", "create", "--quota-url", sagemaker.url(), "--cli-input-json", "{\"Name\": \"q\", \"Owner\": \"me\"}");
        assertThat(top.err()).contains("$.Owner: unknown member; must be one of: Name, Description, ClusterArn");
        // a member of the current API that the pinned Java SDK cannot send: refused with the way to send it
        Cli.Result newer = Cli.run("quota", "create", "--quota-url", sagemaker.url(), "--cli-input-json",
                "{\"ComputeQuotaConfig\": {\"ResourceSharingConfig\": {\"Strategy\": \"Lend\", \"AbsoluteBorrowLimits\": []}}}");
        assertThat(newer.err()).contains("$.ComputeQuotaConfig.ResourceSharingConfig.AbsoluteBorrowLimits: quota-service accepts it",
                "aws sagemaker create-compute-quota");
        assertThat(sagemaker.requests).isEmpty();
    }

    @Test
    void describeVersionIsTheComputeQuotaVersionAndHelpStillWorks() {
        Cli.Result r = Cli.run("quota", "describe", "q3abc", "--version", "2", "--quota-url", sagemaker.url());
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(sagemaker.requests.get(0).body()).contains("\"ComputeQuotaVersion\":2");
        assertThat(Cli.run("quota", "describe", "--help").out()).contains("--compute-quota-version");
    }

    @Test
    void flagsOverrideTheInputFile() throws Exception {
        Cli.Result r = Cli.run("quota", "create", "--cli-input-json", path("create-team-3.json"), "--team-name", "team-9",
                "--resource", "InstanceType=ml.p5.48xlarge,Accelerators=12,VCpu=288.5", "--borrow-limit", "10", "--quota-url", sagemaker.url());

        assertThat(r.exit()).isZero();
        ObjectNode expected = (ObjectNode) tree(json("create-team-3.json"));
        ((ObjectNode) expected.get("ComputeQuotaTarget")).put("TeamName", "team-9");
        ((ObjectNode) expected.get("ComputeQuotaConfig")).set("ComputeQuotaResources",
                tree("[{\"InstanceType\":\"ml.p5.48xlarge\",\"Accelerators\":12,\"VCpu\":288.5}]"));
        ((ObjectNode) expected.get("ComputeQuotaConfig").get("ResourceSharingConfig")).put("BorrowLimit", 10);
        assertThat(tree(sagemaker.requests.get(0).body())).isEqualTo(expected);
    }

    @Test
    void describePrintsTheQuotaAndJsonKeepsTheApiShape() throws Exception {
        Cli.Result table = Cli.run("quota", "describe", "q3abc", "--quota-url", sagemaker.url());
        assertThat(table.exit()).isZero();
        assertThat(table.out()).isEqualTo("""
                Name:       team-3-quota
                Id:         q3abc
                Arn:        arn:aws:sagemaker:us-west-2:000000000000:compute-quota/q3abc
                Version:    2
                Status:     Created
                Cluster:    arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgov-demo
                Team:       team-3
                Weight:     100
                Activation: Enabled
                Sharing:    LendAndBorrow, BorrowLimit 150%
                Preempt:    LowerPriority
                Resources:
                  INSTANCE TYPE    COUNT   ACCELERATORS   VCPU     MEMORY GIB
                  ml.p5.48xlarge   2       <none>         <none>   <none>
                """);
        assertThat(tree(sagemaker.requests.get(0).body())).isEqualTo(tree("{\"ComputeQuotaId\":\"q3abc\"}"));

        JsonNode json = tree(Cli.run("quota", "describe", "q3abc", "-o", "json", "--quota-url", sagemaker.url()).out());
        assertThat(json.get("ComputeQuotaConfig")).isEqualTo(tree(json("describe-team-3.json")).get("ComputeQuotaConfig"));
        assertThat(json.get("CreationTime").asText()).isEqualTo("2026-11-30T10:00:00Z");
    }

    @Test
    void updateStartsFromTheCurrentQuotaAndChangesOnlyTheFlag() throws Exception {
        Cli.Result r = Cli.run("quota", "update", "q3abc", "--borrow-limit", "100", "--quota-url", sagemaker.url());

        assertThat(r).isEqualTo(new Cli.Result(0, "computequota/q3abc updated to version 3\n", ""));
        StubServer.Request update = sagemaker.requests.get(1);
        assertThat(update.header("X-Amz-Target")).isEqualTo("SageMaker.UpdateComputeQuota");
        assertThat(tree(update.body())).isEqualTo(tree("""
                {"ComputeQuotaId":"q3abc","TargetVersion":2,
                 "ComputeQuotaConfig":{"ComputeQuotaResources":[{"InstanceType":"ml.p5.48xlarge","Count":2}],
                   "ResourceSharingConfig":{"Strategy":"LendAndBorrow","BorrowLimit":100},"PreemptTeamTasks":"LowerPriority"},
                 "ComputeQuotaTarget":{"TeamName":"team-3","FairShareWeight":100}}"""));
    }

    @Test
    void aValidationExceptionExitsTwoWithTheServiceMessage() {
        sagemaker.answerAws("CreateComputeQuota", 400,
                "{\"__type\":\"ValidationException\",\"message\":\"ComputeQuotaConfig: quotas of ml.p5.48xlarge would sum to 36 instances, the cluster has 32\"}");

        Cli.Result r = Cli.run("quota", "create", "--cli-input-json", path("create-team-3.json"), "--quota-url", sagemaker.url());

        assertThat(r).isEqualTo(new Cli.Result(2, "",
                "error: ValidationException: ComputeQuotaConfig: quotas of ml.p5.48xlarge would sum to 36 instances, the cluster has 32\n"));
    }

    @Test
    void anUnknownQuotaExitsOne() {
        sagemaker.answerAws("DescribeComputeQuota", 404, "{\"__type\":\"ResourceNotFound\",\"message\":\"no compute quota 'zz'\"}");

        Cli.Result r = Cli.run("quota", "describe", "zz", "--quota-url", sagemaker.url());

        assertThat(r).isEqualTo(new Cli.Result(1, "", "error: ResourceNotFound: no compute quota 'zz'\n"));
    }

    @Test
    void badInputIsRefusedBeforeAnyCall() {
        assertThat(Cli.run("quota", "create", "--resource", "Count=2", "--quota-url", sagemaker.url()))
                .isEqualTo(new Cli.Result(2, "", "error: --resource: InstanceType is required (in 'Count=2')\n"));
        assertThat(Cli.run("quota", "create", "--cli-input-json", "{\"ComputeQuotaTarget\":{\"FairShareWeight\":\"high\"}}", "--quota-url", sagemaker.url()))
                .isEqualTo(new Cli.Result(2, "", "error: $.ComputeQuotaTarget.FairShareWeight: must be a whole number, was \"high\"\n"));
        assertThat(Cli.run("quota", "create", "--cli-input-json", "file:///no/such.json", "--quota-url", sagemaker.url()))
                .isEqualTo(new Cli.Result(2, "", "error: --cli-input-json: no such file: /no/such.json\n"));
        assertThat(sagemaker.requests).isEmpty();
    }

    @Test
    void deleteCallsDeleteComputeQuota() throws Exception {
        assertThat(Cli.run("quota", "delete", "q3abc", "--quota-url", sagemaker.url())).isEqualTo(new Cli.Result(0, "computequota/q3abc deleted\n", ""));
        assertThat(sagemaker.requests.get(0).header("X-Amz-Target")).isEqualTo("SageMaker.DeleteComputeQuota");
        assertThat(tree(sagemaker.requests.get(0).body())).isEqualTo(tree("{\"ComputeQuotaId\":\"q3abc\"}"));
    }

    static JsonNode tree(String json) throws IOException {
        return EventCodec.mapper().readTree(json);
    }

    static String path(String name) {
        try {
            return Path.of(QuotaCommandsTest.class.getResource("/sagemaker/" + name).toURI()).toString();
        } catch (java.net.URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static String json(String name) {
        try (var in = QuotaCommandsTest.class.getResourceAsStream("/sagemaker/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
