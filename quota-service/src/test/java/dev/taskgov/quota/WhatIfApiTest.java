package dev.taskgov.quota;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.NodeRecord;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.events.WorkloadAdmitted;
import dev.taskgov.core.events.WorkloadFinished;
import dev.taskgov.core.events.WorkloadPreempted;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.PreemptionReason;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.PostgresTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static dev.taskgov.quota.QuotaTestKit.JSON;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code POST /what-if}, the quota API's dry run: a recorded hour on the real topics, replayed by the service with a
 * proposed change; refusals name the field; a team key may not see every team's work.
 */
@QuarkusTest
@WithTestResource(PostgresTestResource.class)
@WithTestResource(KafkaTestResource.class)
class WhatIfApiTest {

    static final String TYPE = "ml.p5.48xlarge";
    static final String CLUSTER = "arn:aws:sagemaker:us-west-2:123456789012:cluster/" + dev.taskgov.quota.api.Ids.newId();
    static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    static final Instant T0 = NOW.minusSeconds(3600);

    @TestHTTPResource("/")
    URL service;

    @BeforeAll
    static void recordAnHour() throws Exception {
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, CLUSTER + "#p5-1", node("p5-1"));
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, CLUSTER + "#p5-2", node("p5-2"));
            send(p, TopicCatalog.Names.QUOTA, -7000, CLUSTER + "#team-a", quota("team-a").getBytes(StandardCharsets.UTF_8));
            send(p, TopicCatalog.Names.QUOTA, -7000, CLUSTER + "#team-b", quota("team-b").getBytes(StandardCharsets.UTF_8));
            workload(p, "wi-b1", "team-b", 0, 1800);
            workload(p, "wi-b2", "team-b", 0, null);
        }
    }

    @Test
    void deletingATeamsQuotaShowsItsWorkWaitingAndWhatMakingItNowEvicts() throws Exception {
        HttpResponse<String> r = whatIf(QuotaTestKit.admin(), """
                {"ClusterArn": "%s", "DeleteComputeQuotas": ["team-b"], "Since": "%s", "Until": "%s"}""".formatted(CLUSTER, T0, NOW));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = JSON.readTree(r.body());
        assertThat(report.path("change").asText()).isEqualTo("team-b quota deleted");
        assertThat(report.path("workloads").asInt()).isEqualTo(2);
        assertThat(report.path("evictedIfMadeNow").findValuesAsText("workloadId")).containsExactly("wi-b2");
        assertThat(report.path("evictedIfMadeNow").get(0).path("reason").asText()).isEqualTo("QuotaRemoved");
        assertThat(report.path("teams")).extracting(t -> t.path("team").asText()).containsExactly("team-a", "team-b");
        JsonNode teamA = report.path("teams").get(0);
        JsonNode teamB = report.path("teams").get(1);
        assertThat(teamA.path("asRecorded").path("lentHours").asDouble()).isEqualTo(4.0);
        assertThat(teamB.path("asRecorded").path("admissions").asInt()).isEqualTo(2);
        assertThat(teamB.path("asRecorded").path("borrowedHours").asDouble()).isEqualTo(4.0);
        assertThat(teamB.path("withChange").path("admissions").asInt()).isZero();
        assertThat(teamB.path("withChange").path("pendingAtEnd").asInt()).isEqualTo(2);
    }

    @Test
    void madeNowNamesWhatRunsNowNotWhatFinishedOrWasEvicted() throws Exception {
        String cluster = "arn:aws:sagemaker:us-west-2:123456789012:cluster/" + dev.taskgov.quota.api.Ids.newId();
        try (KafkaProducer<String, byte[]> p = new KafkaProducer<>(SharedKafka.adminClientProperties(), new StringSerializer(),
                new ByteArraySerializer())) {
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, cluster + "#p5-1", node("p5-1", cluster));
            send(p, TopicCatalog.Names.TOPOLOGY, -7200, cluster + "#p5-2", node("p5-2", cluster));
            send(p, TopicCatalog.Names.QUOTA, -7000, cluster + "#team-a", quota("team-a", cluster).getBytes(StandardCharsets.UTF_8));
            send(p, TopicCatalog.Names.QUOTA, -7000, cluster + "#team-b", quota("team-b", cluster).getBytes(StandardCharsets.UTF_8));
            // before a 30-minute window: "ended" runs until 100 s ago (a replay of the window starts it again at its start),
            // "evicted" until team-a's "a-runs" took its node back
            workload(p, cluster, "ended", "team-b", 600, 3500);
            workload(p, cluster, "evicted", "team-b", 1000, null);
            send(p, TopicCatalog.Names.WORKLOAD_PREEMPTED, 3000, "evicted", EventCodec.bytes(new WorkloadPreempted("evicted", "team-b",
                    "a-runs", PreemptionReason.ReclaimLentCapacity, "reclaimed", T0.plusSeconds(3000), cluster)));
            workload(p, cluster, "a-runs", "team-a", 3000, null);
            workload(p, cluster, "runs", "team-b", 3500, null);
        }

        HttpResponse<String> r = whatIf(QuotaTestKit.admin(), """
                {"ClusterArn": "%s", "DeleteComputeQuotas": ["team-b"], "Since": "PT30M", "Until": "%s"}""".formatted(cluster, NOW));

        assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
        JsonNode report = JSON.readTree(r.body());
        assertThat(report.path("evictedIfMadeNow").findValuesAsText("workloadId")).as(r.body()).containsExactly("runs");
        assertThat(report.path("evictedIfMadeNow").get(0).path("reason").asText()).isEqualTo("QuotaRemoved");
    }

    @Test
    void aBadProposalIsAValidationExceptionNamingTheField() throws Exception {
        HttpResponse<String> r = whatIf(QuotaTestKit.admin(), """
                {"ClusterArn": "%s", "ComputeQuotas": [{"ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "%s", "Count": 1}]},
                 "ComputeQuotaTarget": {}}], "Since": "PT1H"}""".formatted(CLUSTER, TYPE));

        assertThat(r.statusCode()).isEqualTo(400);
        JsonNode error = JSON.readTree(r.body());
        assertThat(error.path("__type").asText()).isEqualTo("ValidationException");
        assertThat(error.path("message").asText()).contains("ComputeQuotas[0].ComputeQuotaTarget.TeamName: is required");

        HttpResponse<String> unknown = whatIf(QuotaTestKit.admin(), "{\"DryRun\": true}");
        assertThat(unknown.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(unknown.body()).path("message").asText()).startsWith("DryRun: unknown member");

        HttpResponse<String> notAList = whatIf(QuotaTestKit.admin(), "{\"ComputeQuotas\": {\"Name\": \"q\"}}");
        assertThat(notAList.statusCode()).isEqualTo(400);
        assertThat(JSON.readTree(notAList.body()).path("message").asText()).isEqualTo("ComputeQuotas: must be a list of CreateComputeQuota bodies");

        HttpResponse<String> notATeam = whatIf(QuotaTestKit.admin(), "{\"DeleteComputeQuotas\": [\"team-a\", 7]}");
        assertThat(JSON.readTree(notATeam.body()).path("message").asText()).isEqualTo("DeleteComputeQuotas[1]: must be a team name");
    }

    @Test
    void aTeamKeyIsRefused() {
        HttpResponse<String> r = whatIf(TestCredentials.inDatabase("wi-team", "team:team-b"),
                "{\"ClusterArn\": \"" + CLUSTER + "\", \"DeleteComputeQuotas\": [\"team-b\"]}");
        assertThat(r.statusCode()).isEqualTo(403);
        assertThat(r.body()).contains("AccessDeniedException");
    }

    private HttpResponse<String> whatIf(TestCredentials.Key key, String body) {
        return TestCredentials.send(key, "POST", URI.create("http://localhost:" + service.getPort() + "/what-if"), body,
                "Content-Type", "application/json");
    }

    private static void workload(KafkaProducer<String, byte[]> p, String id, String team, int at, Integer finished) throws Exception {
        workload(p, CLUSTER, id, team, at, finished);
    }

    private static void workload(KafkaProducer<String, byte[]> p, String cluster, String id, String team, int at, Integer finished)
            throws Exception {
        ResourceAmounts perPod = new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(160), BigDecimal.valueOf(1600));
        send(p, TopicCatalog.Names.WORKLOAD_SUBMITTED, at, id, EventCodec.bytes(new WorkloadSubmitted(id, "hyperpod-ns-" + team, null, null,
                "PyTorchJob", null, List.of(new PodSetSpec("worker", 1, TYPE, perPod, null, null)), cluster)));
        send(p, TopicCatalog.Names.WORKLOAD_ADMITTED, at, id,
                EventCodec.bytes(new WorkloadAdmitted(id, team, T0.plusSeconds(at), Map.of(), List.of(), null, cluster)));
        if (finished != null) {
            send(p, TopicCatalog.Names.WORKLOAD_FINISHED, finished, id,
                    EventCodec.bytes(new WorkloadFinished(id, T0.plusSeconds(finished), WorkloadFinished.Outcome.Succeeded, cluster)));
        }
    }

    private static byte[] node(String name) {
        return node(name, CLUSTER);
    }

    private static byte[] node(String name, String cluster) {
        return EventCodec.bytes(new NodeRecord(name, "i-" + name, TYPE, Map.of("kubernetes.io/hostname", name),
                new ResourceAmounts(BigDecimal.valueOf(8), BigDecimal.valueOf(192), BigDecimal.valueOf(2048)), true, cluster));
    }

    private static String quota(String team) {
        return quota(team, CLUSTER);
    }

    private static String quota(String team, String cluster) {
        return """
                {"Name": "%s-quota", "ClusterArn": "%s",
                 "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "%s", "Count": 1}],
                   "ResourceSharingConfig": {"Strategy": "LendAndBorrow", "BorrowLimit": 100}},
                 "ComputeQuotaTarget": {"TeamName": "%s"}}""".formatted(team, cluster, TYPE, team);
    }

    private static void send(KafkaProducer<String, byte[]> p, String topic, int second, String key, byte[] value) throws Exception {
        p.send(new ProducerRecord<>(topic, null, T0.plusSeconds(second).toEpochMilli(), key, value)).get();
    }
}
