package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.quota.capacity.ClusterCapacity;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.CreateComputeQuotaRequest;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

import java.net.URL;
import java.net.http.HttpResponse;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * Every validation rule of the quota API: the AWS SDK raises a SageMakerException with error code
 * ValidationException (HTTP 400) whose message names the field and the rule. Requests the SDK
 * cannot express (wrong member names, broken JSON) go over plain HTTP.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class ValidationErrorsTest {

    private static final String CLUSTER = "arn:aws:sagemaker:us-west-2:123456789012:cluster/abcdefgh1234";

    @TestHTTPResource("/")
    URL service;

    @Inject
    ClusterCapacity capacity;

    /** A valid request, which each case breaks in one way. */
    private static CreateComputeQuotaRequest.Builder valid() {
        return CreateComputeQuotaRequest.builder().name("valid-quota").clusterArn(CLUSTER)
                .computeQuotaConfig(c -> c.computeQuotaResources(ComputeQuotaResourceConfig.builder()
                        .instanceType("ml.p5.48xlarge").accelerators(1).build()))
                .computeQuotaTarget(t -> t.teamName("valid-team"));
    }

    private static Arguments invalid(String name, UnaryOperator<CreateComputeQuotaRequest.Builder> breakIt, String message) {
        return Arguments.of(name, breakIt, message);
    }

    static Stream<Arguments> invalidCreateRequests() {
        return Stream.of(
                invalid("Name missing", b -> b.name(null), "Name: is required"),
                invalid("Name with underscore", b -> b.name("bad_name"), "Name: must match"),
                invalid("ClusterArn missing", b -> b.clusterArn(null), "ClusterArn: is required"),
                invalid("ClusterArn not a cluster ARN", b -> b.clusterArn("arn:aws:sagemaker:us-west-2:1:cluster/x"),
                        "ClusterArn: must match"),
                invalid("Description longer than 1024", b -> b.description("x".repeat(1025)),
                        "Description: must be at most 1024 characters, was 1025"),
                invalid("ComputeQuotaConfig missing", b -> b.computeQuotaConfig((software.amazon.awssdk.services.sagemaker.model.ComputeQuotaConfig) null),
                        "ComputeQuotaConfig: is required"),
                invalid("ComputeQuotaTarget missing", b -> b.computeQuotaTarget((software.amazon.awssdk.services.sagemaker.model.ComputeQuotaTarget) null),
                        "ComputeQuotaTarget: is required"),
                invalid("TeamName missing", b -> b.computeQuotaTarget(t -> t.fairShareWeight(1)),
                        "ComputeQuotaTarget.TeamName: is required"),
                invalid("TeamName with capitals", b -> b.computeQuotaTarget(t -> t.teamName("Team_A")),
                        "ComputeQuotaTarget.TeamName: must match [a-z0-9]([-a-z0-9]*[a-z0-9]){0,39}"),
                invalid("FairShareWeight above 100", b -> b.computeQuotaTarget(t -> t.teamName("t").fairShareWeight(101)),
                        "ComputeQuotaTarget.FairShareWeight: must be in 0..100, was 101"),
                invalid("FairShareWeight negative", b -> b.computeQuotaTarget(t -> t.teamName("t").fairShareWeight(-1)),
                        "ComputeQuotaTarget.FairShareWeight: must be in 0..100, was -1"),
                invalid("BorrowLimit above 10000", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(p5(1))
                                .resourceSharingConfig(s -> s.strategy("LendAndBorrow").borrowLimit(10001))),
                        "ComputeQuotaConfig.ResourceSharingConfig.BorrowLimit: must be in 0..10000, was 10001"),
                invalid("Strategy unknown", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(p5(1))
                                .resourceSharingConfig(s -> s.strategy("BorrowOnly"))),
                        "ComputeQuotaConfig.ResourceSharingConfig.Strategy: must be one of [LendAndBorrow, Lend, DontLend], was 'BorrowOnly'"),
                invalid("PreemptTeamTasks unknown", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(p5(1))
                                .preemptTeamTasks("Always")),
                        "ComputeQuotaConfig.PreemptTeamTasks: must be one of [LowerPriority, Never], was 'Always'"),
                invalid("ActivationState unknown", b -> b.activationState("Paused"),
                        "ActivationState: must be one of [Enabled, Disabled], was 'Paused'"),
                invalid("InstanceType missing", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().accelerators(1).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].InstanceType: is required"),
                invalid("InstanceType unknown", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.z9.mega").accelerators(1).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].InstanceType: unknown instance type 'ml.z9.mega'"),
                invalid("InstanceType twice", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(p5(1), p5(2))),
                        "ComputeQuotaConfig.ComputeQuotaResources[1].InstanceType: instance type 'ml.p5.48xlarge' is given twice"),
                invalid("Accelerators negative", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(p5(-1))),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: must not be negative, was -1"),
                invalid("VCpu negative", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.c5.2xlarge").vCpu(-2.5f).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].VCpu: must not be negative, was -2.5"),
                invalid("Count negative", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.c5.2xlarge").count(-3).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].Count: must not be negative, was -3"),
                invalid("no amount at all", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.c5.2xlarge").build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0]: give Count or at least one of Accelerators, VCpu, MemoryInGiB, "
                                + "AcceleratorPartition"),
                invalid("Accelerators on a CPU instance", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.c5.2xlarge").accelerators(1).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: instance type 'ml.c5.2xlarge' has no accelerators"),
                invalid("AcceleratorPartition of a MIG profile the instance type does not offer", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.p5.48xlarge").accelerators(1)
                                        .acceleratorPartition(p -> p.type("mig-1g.5gb").count(1)).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Type: instance type 'ml.p5.48xlarge' offers "
                                + "mig-1g.10gb, mig-1g.20gb, mig-2g.20gb, mig-3g.40gb, mig-4g.40gb, mig-7g.80gb, not 'mig-1g.5gb'"),
                invalid("AcceleratorPartition on an instance type without MIG", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.c5.2xlarge")
                                        .acceleratorPartition(p -> p.type("mig-1g.10gb").count(1)).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Type: instance type 'ml.c5.2xlarge' offers "
                                + "no accelerator partitions, was 'mig-1g.10gb'"),
                invalid("AcceleratorPartition Count above the API's range", b -> b.computeQuotaConfig(c -> c.computeQuotaResources(
                                ComputeQuotaResourceConfig.builder().instanceType("ml.p5.48xlarge")
                                        .acceleratorPartition(p -> p.type("mig-1g.10gb").count(10_000_001)).build())),
                        "ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Count: must be in 0..10000000, was 10000001"));
    }

    private static ComputeQuotaResourceConfig p5(int accelerators) {
        return ComputeQuotaResourceConfig.builder().instanceType("ml.p5.48xlarge").accelerators(accelerators).build();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidCreateRequests")
    void createIsRefused(String name, UnaryOperator<CreateComputeQuotaRequest.Builder> breakIt, String message) {
        try (SageMakerClient sageMaker = QuotaTestKit.sageMaker(service)) {
            SageMakerException e = catchThrowableOfType(SageMakerException.class,
                    () -> sageMaker.createComputeQuota(breakIt.apply(valid()).build()));
            assertThat(e).as(name).isNotNull();
            assertThat(e.statusCode()).isEqualTo(400);
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("ValidationException");
            assertThat(e.awsErrorDetails().errorMessage()).contains(message);
        }
    }

    static Stream<Arguments> invalidRawRequests() {
        String resource = "{\"InstanceType\":\"ml.p5.48xlarge\",%s}";
        String create = "{\"Name\":\"n\",\"ClusterArn\":\"" + CLUSTER + "\",\"ComputeQuotaTarget\":{\"TeamName\":\"t\"},"
                + "\"ComputeQuotaConfig\":{\"ComputeQuotaResources\":[" + resource + "]}}";
        return Stream.of(
                Arguments.of("body is not JSON", "SageMaker.CreateComputeQuota", "{\"Name\":", 400, "ValidationException",
                        "request body: is not valid JSON"),
                Arguments.of("an unknown member of AcceleratorPartition", "SageMaker.CreateComputeQuota",
                        create.formatted("\"AcceleratorPartition\":{\"Type\":\"mig-1g.10gb\",\"Count\":1,\"Profile\":\"x\"}"), 400,
                        "ValidationException", "ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Profile: unknown member"),
                Arguments.of("an AcceleratorPartition Type that is no MIG profile", "SageMaker.CreateComputeQuota",
                        create.formatted("\"AcceleratorPartition\":{\"Type\":\"mig-9g.1tb\",\"Count\":1}"), 400,
                        "ValidationException", "ComputeQuotaConfig.ComputeQuotaResources[0].AcceleratorPartition.Type: must be one of "
                                + "mig-1g.5gb | mig-1g.10gb"),
                Arguments.of("member name in the wrong case", "SageMaker.CreateComputeQuota",
                        create.formatted("\"vcpu\":2"), 400, "ValidationException",
                        "ComputeQuotaConfig.ComputeQuotaResources[0].vcpu: unknown member (did you mean VCpu?)"),
                Arguments.of("unknown top-level member", "SageMaker.CreateComputeQuota",
                        "{\"Team\":\"a\"}", 400, "ValidationException", "Team: unknown member"),
                Arguments.of("fractional Count", "SageMaker.CreateComputeQuota",
                        create.formatted("\"Count\":1.5"), 400, "ValidationException",
                        "ComputeQuotaConfig.ComputeQuotaResources[0].Count: must be a whole number of instances, was 1.5"),
                Arguments.of("Accelerators not a number", "SageMaker.CreateComputeQuota",
                        create.formatted("\"Accelerators\":\"many\""), 400, "ValidationException",
                        "ComputeQuotaConfig.ComputeQuotaResources[0].Accelerators: must be a number, was \"many\""),
                Arguments.of("unknown operation", "SageMaker.CreateCluster", "{}", 400, "UnknownOperationException",
                        "X-Amz-Target 'SageMaker.CreateCluster' is not an operation of this service"),
                Arguments.of("Update without TargetVersion", "SageMaker.UpdateComputeQuota",
                        "{\"ComputeQuotaId\":\"abcdefabcdef\"}", 400, "ValidationException", "TargetVersion: is required"),
                Arguments.of("Describe with a malformed id", "SageMaker.DescribeComputeQuota",
                        "{\"ComputeQuotaId\":\"NOT-AN-ID\"}", 400, "ValidationException",
                        "ComputeQuotaId: must match [a-z0-9]{12}, was 'NOT-AN-ID'"),
                Arguments.of("Describe of an unknown id", "SageMaker.DescribeComputeQuota",
                        "{\"ComputeQuotaId\":\"abcdefabcdef\"}", 404, "ResourceNotFound",
                        "ComputeQuotaId: compute quota abcdefabcdef does not exist"),
                Arguments.of("List with MaxResults 0", "SageMaker.ListComputeQuotas", "{\"MaxResults\":0}", 400,
                        "ValidationException", "MaxResults: must be in 1..100, was 0"),
                Arguments.of("List with a foreign NextToken", "SageMaker.ListComputeQuotas", "{\"NextToken\":\"abc\"}", 400,
                        "ValidationException", "NextToken: is not a token this service returned"),
                Arguments.of("List sorted by an unknown key", "SageMaker.ListComputeQuotas", "{\"SortBy\":\"Team\"}", 400,
                        "ValidationException", "SortBy: must be one of [Name, CreationTime, Status, ClusterArn], was 'Team'"),
                Arguments.of("List with a bad Status", "SageMaker.ListComputeQuotas", "{\"Status\":\"Running\"}", 400,
                        "ValidationException", "Status: must be one of"),
                Arguments.of("List with a bad CreatedAfter", "SageMaker.ListComputeQuotas", "{\"CreatedAfter\":true}", 400,
                        "ValidationException", "CreatedAfter: must be a timestamp (epoch seconds), was true"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("invalidRawRequests")
    void rawRequestIsRefused(String name, String target, String body, int status, String type, String message)
            throws Exception {
        HttpResponse<String> response = post(target, body);
        assertThat(response.statusCode()).as(name).isEqualTo(status);
        assertThat(response.headers().firstValue("Content-Type")).hasValueSatisfying(
                v -> assertThat(v).startsWith("application/x-amz-json-1.1"));
        JsonNode error = QuotaTestKit.JSON.readTree(response.body());
        assertThat(error.path("__type").asText()).isEqualTo(type);
        assertThat(error.path("message").asText()).contains(message);
    }

    @Test
    void severalBrokenFieldsAreAllNamed() throws Exception {
        HttpResponse<String> response = post("SageMaker.CreateComputeQuota", "{\"Name\":\"n\",\"ClusterArn\":\"" + CLUSTER
                + "\",\"ComputeQuotaTarget\":{\"TeamName\":\"BAD\",\"FairShareWeight\":500},"
                + "\"ComputeQuotaConfig\":{\"ComputeQuotaResources\":[{\"InstanceType\":\"ml.nope\",\"Accelerators\":1}]}}");
        String message = QuotaTestKit.JSON.readTree(response.body()).path("message").asText();
        assertThat(message).contains("ComputeQuotaTarget.TeamName: must match", "ComputeQuotaTarget.FairShareWeight: must be in 0..100, was 500",
                "ComputeQuotaConfig.ComputeQuotaResources[0].InstanceType: unknown instance type 'ml.nope'");
    }

    private HttpResponse<String> post(String target, String body) throws Exception {
        return QuotaTestKit.wire(service, target, body);
    }
}
