package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.TopicCatalog.Names;
import dev.taskgov.client.support.auth.RequestSigner;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.sagemaker.SageMakerClient;
import software.amazon.awssdk.services.sagemaker.model.ComputeQuotaResourceConfig;
import software.amazon.awssdk.services.sagemaker.model.FairShare;
import software.amazon.awssdk.services.sagemaker.model.ResourceSharingStrategy;
import software.amazon.awssdk.services.sagemaker.model.SageMakerException;

import java.net.URI;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static dev.taskgov.quota.QuotaTestKit.newClusterArn;
import static dev.taskgov.quota.QuotaTestKit.team;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The access matrix (docs/security.md) for quota-service: every operation of its API (the ten SageMaker operations with the real
 * {@code SageMakerClient} and the {@code aws} CLI; taskgov's credentials and audit endpoints) x every caller
 * (admin, own team, other team, viewer, unknown key, wrong secret, no signature, skewed clock, replay), each either
 * allowed or refused with the exact AWS error type and status.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class AccessMatrixTest {

    private static final String P5 = "ml.p5.48xlarge";
    private static boolean nodesPublished;

    @TestHTTPResource("/")
    URL service;

    private TestCredentials.Key admin;
    private String ownTeam;
    private String ownQuotaId;
    private String cluster;
    private final Map<String, TestCredentials.Key> keys = new LinkedHashMap<>();

    @BeforeEach
    void setUp() {
        if (!nodesPublished) {
            QuotaTestKit.publishNodes(P5, 8, 8, 192, 2048);
            nodesPublished = true;
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> QuotaTestKit.sharedCapacity()
                .getOrDefault(P5, dev.taskgov.core.resources.Resources.ZERO).accelerators() >= 64);
        admin = QuotaTestKit.admin();
        ownTeam = team("own");
        // One governed cluster for this test's quotas (each is 1 accelerator of its 64); a scheduler config takes a
        // cluster of its own (one per cluster).
        cluster = newClusterArn();
        ownQuotaId = createQuota(sdk(admin), cluster, ownTeam);
        keys.put("admin", admin);
        keys.put("own team", TestCredentials.inDatabase(ownTeam, "team:" + ownTeam));
        String otherTeam = team("other");
        keys.put("other team", TestCredentials.inDatabase(otherTeam, "team:" + otherTeam));
        keys.put("viewer", TestCredentials.inDatabase("auditor", "viewer"));
        keys.put("unknown key", TestCredentials.newKey("nobody", "admin"));
        TestCredentials.Key real = TestCredentials.inDatabase("someone", "admin");
        keys.put("wrong secret", new TestCredentials.Key(real.accessKeyId(), real.secret() + "x", "someone", real.roles()));
    }

    private SageMakerClient sdk(TestCredentials.Key key) {
        return QuotaTestKit.sageMaker(service, key);
    }

    private static String createQuota(SageMakerClient c, String cluster, String team) {
        return c.createComputeQuota(r -> r.name(team + "-q").clusterArn(cluster)
                .computeQuotaConfig(q -> q.computeQuotaResources(ComputeQuotaResourceConfig.builder().instanceType(P5).accelerators(1).build())
                        .resourceSharingConfig(s -> s.strategy(ResourceSharingStrategy.LEND_AND_BORROW)))
                .computeQuotaTarget(t -> t.teamName(team))).computeQuotaId();
    }

    private String createConfig(SageMakerClient c) {
        return c.createClusterSchedulerConfig(r -> r.name("policy").clusterArn(newClusterArn())
                .schedulerConfig(s -> s.fairShare(FairShare.ENABLED))).clusterSchedulerConfigId();
    }

    /** The ten operations, each run by the given caller's client; setup that must succeed runs as the admin. */
    private Map<String, Function<SageMakerClient, Object>> operations() {
        SageMakerClient asAdmin = sdk(admin);
        Map<String, Function<SageMakerClient, Object>> ops = new LinkedHashMap<>();
        ops.put("CreateComputeQuota", c -> createQuota(c, cluster, team("new")));
        ops.put("DescribeComputeQuota", c -> c.describeComputeQuota(r -> r.computeQuotaId(ownQuotaId)));
        ops.put("UpdateComputeQuota", c -> {
            String id = createQuota(asAdmin, cluster, team("upd"));
            return c.updateComputeQuota(r -> r.computeQuotaId(id).targetVersion(1).description("changed"));
        });
        ops.put("DeleteComputeQuota", c -> {
            String id = createQuota(asAdmin, cluster, team("del"));
            return c.deleteComputeQuota(r -> r.computeQuotaId(id));
        });
        ops.put("ListComputeQuotas", c -> c.listComputeQuotas(r -> r.maxResults(100)));
        ops.put("CreateClusterSchedulerConfig", this::createConfig);
        ops.put("DescribeClusterSchedulerConfig", c -> {
            String id = createConfig(asAdmin);
            return c.describeClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id));
        });
        ops.put("UpdateClusterSchedulerConfig", c -> {
            String id = createConfig(asAdmin);
            return c.updateClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id).targetVersion(1).description("changed"));
        });
        ops.put("DeleteClusterSchedulerConfig", c -> {
            String id = createConfig(asAdmin);
            return c.deleteClusterSchedulerConfig(r -> r.clusterSchedulerConfigId(id));
        });
        ops.put("ListClusterSchedulerConfigs", c -> c.listClusterSchedulerConfigs(r -> r.maxResults(100)));
        return ops;
    }

    /** null = allowed; else the AWS error type the caller gets. */
    private static String expected(String who, String operation) {
        boolean read = operation.startsWith("Describe") || operation.startsWith("List");
        return switch (who) {
            case "admin" -> null;
            case "viewer" -> read ? null : "AccessDeniedException";
            case "own team" -> operation.equals("DescribeComputeQuota") || operation.equals("ListComputeQuotas") ? null : "AccessDeniedException";
            case "other team" -> operation.equals("ListComputeQuotas") ? null : "AccessDeniedException";
            case "unknown key" -> "UnrecognizedClientException";
            case "wrong secret" -> "InvalidSignatureException";
            default -> throw new IllegalArgumentException(who);
        };
    }

    @Test
    void everySagemakerOperationForEveryKeyHolderThroughTheAwsSdk() {
        List<String> mismatches = new ArrayList<>();
        for (Map.Entry<String, TestCredentials.Key> who : keys.entrySet()) {
            try (SageMakerClient client = sdk(who.getValue())) {
                for (Map.Entry<String, Function<SageMakerClient, Object>> op : operations().entrySet()) {
                    String want = expected(who.getKey(), op.getKey());
                    String got;
                    try {
                        op.getValue().apply(client);
                        got = null;
                    } catch (SageMakerException e) {
                        got = e.awsErrorDetails().errorCode();
                        int status = e.statusCode();
                        int wantStatus = "MissingAuthenticationTokenException".equals(got) ? 403 : 400;
                        if (status != wantStatus) mismatches.add(who.getKey() + " " + op.getKey() + ": status " + status);
                        if (got.equals("AccessDeniedException") && !e.awsErrorDetails().errorMessage().contains("not authorized")) {
                            mismatches.add(who.getKey() + " " + op.getKey() + ": unclear message " + e.awsErrorDetails().errorMessage());
                        }
                    }
                    if (!java.util.Objects.equals(want, got)) {
                        mismatches.add(who.getKey() + " " + op.getKey() + ": expected " + (want == null ? "allowed" : want)
                                + ", got " + (got == null ? "allowed" : got));
                    }
                }
            }
        }
        assertThat(mismatches).isEmpty();
    }

    @Test
    void aTeamKeyListsOnlyItsOwnQuotaAndTheOtherTeamsKeySeesNoneOfIt() {
        var own = sdk(keys.get("own team")).listComputeQuotas(r -> r.maxResults(100)).computeQuotaSummaries();
        assertThat(own).extracting(s -> s.computeQuotaTarget().teamName()).containsOnly(ownTeam);
        assertThat(own).extracting(s -> s.computeQuotaId()).contains(ownQuotaId);
        var other = sdk(keys.get("other team")).listComputeQuotas(r -> r.maxResults(100)).computeQuotaSummaries();
        assertThat(other).extracting(s -> s.computeQuotaId()).doesNotContain(ownQuotaId);
        assertThat(sdk(admin).listComputeQuotas(r -> r.maxResults(100)).computeQuotaSummaries())
                .extracting(s -> s.computeQuotaId()).contains(ownQuotaId);
    }

    private static final List<String> TARGETS = List.of("CreateComputeQuota", "DescribeComputeQuota", "UpdateComputeQuota",
            "DeleteComputeQuota", "ListComputeQuotas", "CreateClusterSchedulerConfig", "DescribeClusterSchedulerConfig",
            "UpdateClusterSchedulerConfig", "DeleteClusterSchedulerConfig", "ListClusterSchedulerConfigs");

    @Test
    void noSignatureASkewedClockAndAReplayedChangeAreRefusedForEveryOperation() throws Exception {
        for (String op : TARGETS) {
            String body = op.equals("DescribeComputeQuota") ? "{\"ComputeQuotaId\":\"" + ownQuotaId + "\"}" : "{}";
            HttpResponse<String> unsigned = QuotaTestKit.wire(service, null, "SageMaker." + op, body);
            assertError(op + " unsigned", unsigned, 403, "MissingAuthenticationTokenException");

            for (Duration skew : List.of(Duration.ofMinutes(-6), Duration.ofMinutes(6))) {
                RequestSigner skewed = new RequestSigner(admin.accessKeyId(), admin.secret(),
                        Clock.offset(Clock.systemUTC(), skew));
                HttpResponse<String> r = send(signed(skewed, op, body));
                assertError(op + " skewed " + skew, r, 400, "InvalidSignatureException");
                assertThat(JSON.readTree(r.body()).path("message").asText()).containsAnyOf("Signature expired", "not yet current");
            }
            // a clock off by less than 5 minutes is accepted (the operation runs, or refuses its input); the same
            // request sent again is a replay when the operation changes something, and answered again when it reads
            HttpRequest fourAhead = signed(new RequestSigner(admin.accessKeyId(), admin.secret(),
                    Clock.offset(Clock.systemUTC(), Duration.ofMinutes(4))), op, body);
            HttpResponse<String> first = send(fourAhead);
            assertThat(first.headers().firstValue("x-amzn-ErrorType").orElse("none")).as(op + " 4 minutes ahead: " + first.body())
                    .isIn("none", "ValidationException", "ResourceNotFound");
            HttpResponse<String> again = send(fourAhead);
            if (op.startsWith("Describe") || op.startsWith("List")) {
                assertThat(again.headers().firstValue("x-amzn-ErrorType").orElse("none")).as(op + " again: " + again.body())
                        .isEqualTo(first.headers().firstValue("x-amzn-ErrorType").orElse("none"));
            } else {
                assertError(op + " replayed", again, 400, "InvalidSignatureException");
            }
        }
    }

    @Test
    void anExactReplayOfAnAcceptedChangeIsRefusedAndAudited() throws Exception {
        HttpRequest request = signed(new RequestSigner(admin.accessKeyId(), admin.secret()), "DeleteComputeQuota",
                "{\"ComputeQuotaId\":\"cq-nonexistent0\"}");
        HttpResponse<String> first = send(request);
        assertThat(first.headers().firstValue("x-amzn-ErrorType").orElse("none")).as(first.body())
                .isIn("ResourceNotFound", "ValidationException");
        HttpResponse<String> replay = send(request);
        assertError("replay", replay, 400, "InvalidSignatureException");
        assertThat(JSON.readTree(replay.body()).path("message").asText()).contains("already been used");
        // a replay proves no key: the audit names the key the request claimed, under the principal "anonymous"
        JsonNode audit = JSON.readTree(TestCredentials.send(admin, "GET", URI.create("http://localhost:" + service.getPort()
                + "/audit?principal=anonymous"), null).body());
        assertThat(audit.path("events").toString()).contains("DeleteComputeQuota", "already been used",
                "request named access key " + admin.accessKeyId());
    }

    @Test
    void credentialsAndAuditEndpointsAreForAdminsAndAuditAlsoForViewers() throws Exception {
        URI credentials = URI.create("http://localhost:" + service.getPort() + "/credentials");
        URI audit = URI.create("http://localhost:" + service.getPort() + "/audit");
        String create = "{\"principal\":\"m-team\",\"roles\":[\"team:m-team\"]}";
        for (Map.Entry<String, TestCredentials.Key> who : keys.entrySet()) {
            String w = who.getKey();
            String auth = switch (w) {
                case "unknown key" -> "UnrecognizedClientException";
                case "wrong secret" -> "InvalidSignatureException";
                default -> null;
            };
            int authStatus = 400;
            HttpResponse<String> created = TestCredentials.send(who.getValue(), "POST", credentials, create, "Content-Type", "application/json");
            HttpResponse<String> listed = TestCredentials.send(who.getValue(), "GET", credentials, null);
            HttpResponse<String> audited = TestCredentials.send(who.getValue(), "GET", audit, null);
            if (auth != null) {
                for (HttpResponse<String> r : List.of(created, listed, audited)) assertError(w, r, authStatus, auth);
            } else if (w.equals("admin")) {
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                String id = JSON.readTree(created.body()).path("accessKeyId").asText();
                assertThat(listed.statusCode()).isEqualTo(200);
                assertThat(audited.statusCode()).isEqualTo(200);
                HttpResponse<String> revoked = TestCredentials.send(admin, "DELETE", URI.create(credentials + "/" + id), null);
                assertThat(JSON.readTree(revoked.body()).path("status").asText()).isEqualTo("Revoked");
            } else {
                assertError(w + " create", created, 403, "AccessDeniedException");
                assertError(w + " list", listed, 403, "AccessDeniedException");
                if (w.equals("viewer")) assertThat(audited.statusCode()).isEqualTo(200);
                else assertError(w + " audit", audited, 403, "AccessDeniedException");
            }
            if (!w.equals("admin")) {
                HttpResponse<String> revokeOther = TestCredentials.send(who.getValue(), "DELETE",
                        URI.create(credentials + "/" + keys.get("viewer").accessKeyId()), null);
                if (auth != null) assertError(w + " revoke", revokeOther, authStatus, auth);
                else assertError(w + " revoke", revokeOther, 403, "AccessDeniedException");
            }
        }
        for (URI uri : List.of(credentials, audit)) {
            assertError(uri + " unsigned", TestCredentials.send(null, "GET", uri, null), 403, "MissingAuthenticationTokenException");
        }
    }

    @Test
    void aNewKeyWorksAtOnceARevokedOneIsUnrecognizedAndVersionsAndAuditNameTheAuthor() throws Exception {
        URI credentials = URI.create("http://localhost:" + service.getPort() + "/credentials");
        JsonNode created = JSON.readTree(TestCredentials.send(admin, "POST", credentials,
                "{\"principal\":\"ops-2\",\"roles\":[\"admin\"]}", "Content-Type", "application/json").body());
        TestCredentials.Key ops = new TestCredentials.Key(created.path("accessKeyId").asText(),
                created.path("secretAccessKey").asText(), "ops-2", List.of("admin"));
        String quota = createQuota(sdk(ops), newClusterArn(), team("authored"));
        sdk(ops).updateComputeQuota(r -> r.computeQuotaId(quota).targetVersion(1).description("by ops-2"));
        assertThat(io.quarkus.narayana.jta.QuarkusTransaction.requiringNew().call(() ->
                dev.taskgov.quota.computequota.ComputeQuotaVersionEntity.<dev.taskgov.quota.computequota.ComputeQuotaVersionEntity>list("resourceId", quota)
                        .stream().map(v -> v.author).toList())).containsExactly("ops-2", "ops-2");

        JsonNode audit = JSON.readTree(TestCredentials.send(admin, "GET", URI.create("http://localhost:" + service.getPort()
                + "/audit?principal=ops-2"), null).body());
        JsonNode update = null;
        for (JsonNode e : audit.path("events")) if (e.path("operation").asText().equals("UpdateComputeQuota")) update = e;
        assertThat(update).isNotNull();
        assertThat(update.path("target").asText()).isEqualTo(quota);
        assertThat(update.path("outcome").asText()).isEqualTo("Allowed");
        assertThat(update.path("before").path("ComputeQuotaVersion").asInt()).isEqualTo(1);
        assertThat(update.path("after").path("ComputeQuotaVersion").asInt()).isEqualTo(2);
        assertThat(update.path("after").path("Description").asText()).isEqualTo("by ops-2");

        TestCredentials.send(admin, "DELETE", URI.create(credentials + "/" + ops.accessKeyId()), null);
        try {
            sdk(ops).listComputeQuotas(r -> r.maxResults(1));
            throw new AssertionError("a revoked key was accepted");
        } catch (SageMakerException e) {
            assertThat(e.awsErrorDetails().errorCode()).isEqualTo("UnrecognizedClientException");
        }
    }

    @Test
    void auditRecordsOfTheOtherServicesFromTheAuditTopicAreStoredOnceAndShown() throws Exception {
        dev.taskgov.core.auth.AuditEvent event = dev.taskgov.core.auth.AuditEvent.of(java.time.Instant.now(), "admission-service",
                "team-z", "SubmitWorkload", "workload z-1", "Allowed", null, null);
        QuotaTestKit.send(Names.AUDIT, event.eventId(), event.toJson());
        QuotaTestKit.send(Names.AUDIT, event.eventId(), event.toJson()); // delivered twice
        URI audit = URI.create("http://localhost:" + service.getPort() + "/audit?principal=team-z");
        await().atMost(Duration.ofSeconds(60)).until(() -> JSON.readTree(TestCredentials.send(keys.get("viewer"), "GET", audit, null).body())
                .path("events").size() > 0);
        JsonNode events = JSON.readTree(TestCredentials.send(keys.get("viewer"), "GET", audit, null).body()).path("events");
        assertThat(events).hasSize(1);
        assertThat(events.get(0).path("service").asText()).isEqualTo("admission-service");
        assertThat(events.get(0).path("target").asText()).isEqualTo("workload z-1");
    }

    /** The broker's refusals (deploy/local's AuditingAuthorizer) reach the same trail as the HTTP ones. */
    @Test
    void aTeamProducingToAnotherTeamsSubmissionTopicIsRefusedByTheBrokerAndShownInTheAudit() throws Exception {
        SharedKafka.addTeams("kafka-intruder", "kafka-victim");
        String intruder = KafkaAccess.teamPrincipal("kafka-intruder");
        String victimTopic = KafkaAccess.submissionTopic(TopicCatalog.Names.WORKLOAD_SUBMITTED, "kafka-victim");
        Map<String, Object> props = new java.util.HashMap<>(SharedKafka.clientProperties(intruder));
        props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "20000");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            assertThatThrownBy(() -> producer.send(new ProducerRecord<>(victimTopic, "w-1", "{}")).get())
                    .hasCauseInstanceOf(TopicAuthorizationException.class);
        }
        URI audit = URI.create("http://localhost:" + service.getPort() + "/audit?principal=" + intruder);
        await().atMost(Duration.ofSeconds(60)).until(() -> JSON.readTree(TestCredentials.send(keys.get("viewer"), "GET", audit, null).body())
                .path("events").size() > 0);
        JsonNode event = JSON.readTree(TestCredentials.send(keys.get("viewer"), "GET", audit, null).body()).path("events").get(0);
        assertThat(event.path("service").asText()).isEqualTo("kafka-broker");
        assertThat(event.path("operation").asText()).isEqualTo("Kafka DESCRIBE");
        assertThat(event.path("target").asText()).isEqualTo("TOPIC " + victimTopic);
        assertThat(event.path("outcome").asText()).startsWith("Refused: Denied: ");
    }

    @Test
    void theAwsCliGetsTheSameAnswers() {
        String cluster = newClusterArn();
        for (Map.Entry<String, TestCredentials.Key> who : keys.entrySet()) {
            Map<String, String[]> calls = new LinkedHashMap<>();
            calls.put("DescribeComputeQuota", new String[] {"describe-compute-quota", "--compute-quota-id", ownQuotaId});
            calls.put("ListComputeQuotas", new String[] {"list-compute-quotas"});
            calls.put("CreateClusterSchedulerConfig", new String[] {"create-cluster-scheduler-config", "--name", "p",
                    "--cluster-arn", cluster, "--scheduler-config", "{\"FairShare\": \"Enabled\"}"});
            for (Map.Entry<String, String[]> call : calls.entrySet()) {
                String want = expected(who.getKey(), call.getKey());
                if (who.getKey().equals("admin") && call.getKey().startsWith("Create")) {
                    continue; // the admin's create is covered by the SDK matrix; a second one here would conflict
                }
                AwsCli.Result r = AwsCli.sagemaker(service, who.getValue(), call.getValue());
                if (want == null) {
                    assertThat(r.exitCode()).as(who.getKey() + " " + call.getKey() + ": " + r.stderr()).isZero();
                } else {
                    assertThat(r.exitCode()).as(who.getKey() + " " + call.getKey()).isNotZero();
                    assertThat(r.stderr()).as(who.getKey() + " " + call.getKey()).contains("(" + want + ")");
                }
            }
        }
        AwsCli.Result unsigned = AwsCli.sagemaker(service, admin, "list-compute-quotas", "--no-sign-request");
        assertThat(unsigned.stderr()).contains("(MissingAuthenticationTokenException)");
    }

    private HttpRequest signed(RequestSigner signer, String op, String body) {
        return TestCredentials.request(signer, "POST", URI.create("http://localhost:" + service.getPort() + "/"), body,
                "X-Amz-Target", "SageMaker." + op, "Content-Type", "application/x-amz-json-1.1");
    }

    private static HttpResponse<String> send(HttpRequest request) {
        return TestCredentials.send(request);
    }

    private static void assertError(String what, HttpResponse<String> r, int status, String type) {
        assertThat(r.statusCode()).as(what + ": " + r.body()).isEqualTo(status);
        try {
            assertThat(JSON.readTree(r.body()).path("__type").asText()).as(what).isEqualTo(type);
        } catch (java.io.IOException e) {
            throw new AssertionError(what + ": " + r.body(), e);
        }
    }
}
