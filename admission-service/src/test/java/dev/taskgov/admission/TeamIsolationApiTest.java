package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.PodSetSpec;
import dev.taskgov.core.events.ResourceAmounts;
import dev.taskgov.core.events.WorkloadSubmitted;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.client.support.auth.RequestSigner;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Over signed HTTP against the running service and the real broker, what a team key may learn of another team:
 * a workload id belongs to the team that first submitted it (409 WorkloadIdTaken for another team, nothing changes);
 * another team's id reads as 404, word for word as an id nobody submitted; a dry run names other teams' victims only
 * as a count and an amount; the platform stamps {@code submittedAt}. An admin or a viewer still sees everything.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class TeamIsolationApiTest {

    private static final String ONE = "ti-one";
    private static final String TWO = "ti-two";
    /** An instance type no other test of this module uses: these teams' use and borrowing are theirs alone. */
    private static final String TYPE = "ml.g5.48xlarge";
    private static Map<String, TestCredentials.Key> keys;

    @TestHTTPResource("/")
    URL service;

    @Inject
    AdmissionRuntime runtime;

    @BeforeEach
    void setUp() {
        if (keys != null) return;
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.clusterOfType(TYPE, "ti-node-", 2, Map.of(ONE, 8L, TWO, 8L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(TWO))
                        && p.summary(ClusterArn.UNNAMED).isPresent()).orElse(false));
        keys = Map.of(
                "admin", SignedRestAssured.keyOnTopic("/workloads", "ti-admin", "admin"),
                "viewer", SignedRestAssured.keyOnTopic("/workloads", "ti-viewer", "viewer"),
                ONE, SignedRestAssured.keyOnTopic("/workloads", ONE, "team:" + ONE),
                TWO, SignedRestAssured.keyOnTopic("/workloads", TWO, "team:" + TWO));
    }

    private static String submission(String id, String team, int pods, Instant at) {
        return new String(EventCodec.bytes(new WorkloadSubmitted(id, "hyperpod-ns-" + team, "hyperpod-ns-" + team + "-localqueue",
                "training-priority", "PyTorchJob", at, List.of(new PodSetSpec("worker", pods, TYPE,
                new ResourceAmounts(BigDecimal.ONE, BigDecimal.valueOf(4), BigDecimal.valueOf(32)), null, null)))),
                StandardCharsets.UTF_8);
    }

    private void submitAndAwait(String who, String id, String team, int pods, WorkloadState state) {
        HttpResponse<String> r = call(who, "POST", "/workloads", submission(id, team, pods, Instant.parse("2026-12-01T10:00:00Z")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload(id))
                .map(w -> w.state() == state).orElse(false));
    }

    @Test
    void anotherTeamsSubmissionOfATakenIdIs409AndChangesNothing() throws Exception {
        // team one takes an id in team two's naming scheme
        submitAndAwait(ONE, "ti-two-train-7", ONE, 1, WorkloadState.Admitted);

        HttpResponse<String> taken = call(TWO, "POST", "/workloads", submission("ti-two-train-7", TWO, 2, Instant.now()));

        assertThat(taken.statusCode()).as(taken.body()).isEqualTo(409);
        JsonNode body = EventCodec.mapper().readTree(taken.body());
        assertThat(body.path("message").asText()).startsWith("WorkloadIdTaken");
        assertThat(body.path("errors").get(0).path("field").asText()).isEqualTo("workloadId");
        assertThat(body.path("errors").get(0).path("rule").asText()).contains("is taken");
        assertThat(taken.body()).doesNotContain(ONE + "'").doesNotContain("Admitted");
        WorkloadRecord kept = runtime.reads().flatMap(p -> p.workload("ti-two-train-7")).orElseThrow();
        assertThat(kept.team()).isEqualTo(ONE);
        assertThat(kept.spec().podSets().get(0).count()).isEqualTo(1);
        // the same team resubmitting its own id: accepted as before, and nothing changes
        assertThat(call(ONE, "POST", "/workloads", submission("ti-two-train-7", ONE, 3, Instant.now())).statusCode()).isEqualTo(202);
    }

    @Test
    void anotherTeamsIdReadsAs404ExactlyAsAnUnknownOne() {
        submitAndAwait(ONE, "ti-one-secret", ONE, 1, WorkloadState.Admitted);

        HttpResponse<String> other = call(TWO, "GET", "/workloads/ti-one-secret", null);
        HttpResponse<String> unknown = call(TWO, "GET", "/workloads/ti-one-nothing", null);

        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(other.body()).isEqualTo(unknown.body().replace("ti-one-nothing", "ti-one-secret"));
        assertThat(other.headers().firstValue("x-amzn-ErrorType")).isEqualTo(unknown.headers().firstValue("x-amzn-ErrorType"));
        assertThat(other.body()).doesNotContain(ONE + "'", "belongs");
        assertThat(call(ONE, "GET", "/workloads/ti-one-secret", null).statusCode()).isEqualTo(200);
        assertThat(call("viewer", "GET", "/workloads/ti-one-secret", null).statusCode()).isEqualTo(200);
    }

    @Test
    void thePlatformStampsSubmittedAtOverHttp() throws Exception {
        Instant before = Instant.now();
        HttpResponse<String> r = call(ONE, "POST", "/workloads", submission("ti-one-early", ONE, 1, Instant.parse("2001-01-01T00:00:00Z")));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload("ti-one-early")).isPresent());
        JsonNode described = EventCodec.mapper().readTree(call(ONE, "GET", "/workloads/ti-one-early", null).body());
        assertThat(Instant.parse(described.path("submittedAt").asText())).isAfterOrEqualTo(before.minusSeconds(1));
        assertThat(described.path("clientSubmittedAt").asText()).isEqualTo("2001-01-01T00:00:00Z");
    }

    @Test
    void aDryRunNamesOtherTeamsVictimsOnlyAsACountAndAnAmount() throws Exception {
        // team two borrows 4 of team one's idle 8: two workloads of 6
        submitAndAwait(TWO, "ti-two-a", TWO, 6, WorkloadState.Admitted);
        submitAndAwait(TWO, "ti-two-b", TWO, 6, WorkloadState.Admitted);
        // within team one's nominal whatever else of team one runs (the other tests hold at most 3 of its 8)
        String dry = submission("ti-one-reclaim", ONE, 5, Instant.now());

        HttpResponse<String> asTeam = call(ONE, "POST", "/workloads:dry-run", dry);
        HttpResponse<String> asViewer = call("admin", "POST", "/workloads:dry-run", dry);

        assertThat(asViewer.statusCode()).as(asViewer.body()).isEqualTo(200);
        JsonNode all = EventCodec.mapper().readTree(asViewer.body());
        assertThat(all.path("verdict").asText()).isEqualTo("AdmittedAfterPreemption");
        assertThat(all.path("preempting").findValuesAsText("workloadId")).containsExactly("ti-two-b");

        assertThat(asTeam.statusCode()).as(asTeam.body()).isEqualTo(200);
        JsonNode seen = EventCodec.mapper().readTree(asTeam.body());
        assertThat(seen.path("verdict").asText()).isEqualTo("AdmittedAfterPreemption");
        assertThat(seen.path("preempting")).isEmpty();
        assertThat(seen.path("preemptingOtherTeams").path("workloads").asInt()).isEqualTo(1);
        assertThat(seen.path("preemptingOtherTeams").path("holding").path(TYPE).path("accelerators").asInt()).isEqualTo(6);
        assertThat(seen.path("message").asText()).contains("would preempt 1 workload of other teams, 6 accelerators");
        // neither the victim, nor its use, nor its team's nominal
        assertThat(asTeam.body()).doesNotContain("ti-two-b", "ti-two-a", "against its nominal");
    }

    @Test
    void readinessIsReportedByTheWorkloadsOwnTeamOnlyAndOnlyWhileItRuns() throws Exception {
        submitAndAwait(ONE, "ti-one-gang", ONE, 1, WorkloadState.Admitted);

        HttpResponse<String> other = call(TWO, "POST", "/workloads/ti-one-gang/pods-ready", "");
        HttpResponse<String> unknown = call(TWO, "POST", "/workloads/ti-one-nothing/pods-ready", "");
        assertThat(other.statusCode()).isEqualTo(404);
        assertThat(other.body()).isEqualTo(unknown.body().replace("ti-one-nothing", "ti-one-gang"));

        HttpResponse<String> own = call(ONE, "POST", "/workloads/ti-one-gang/pods-ready", "");
        assertThat(own.statusCode()).as(own.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload("ti-one-gang"))
                .map(WorkloadRecord::podsReady).orElse(false));
        JsonNode described = EventCodec.mapper().readTree(call(ONE, "GET", "/workloads/ti-one-gang", null).body());
        assertThat(described.path("reason").asText()).isEqualTo("PodsReady");

        // a workload that does not run: refused, naming the field and why
        assertThat(call(ONE, "POST", "/workloads/ti-one-gang/finish", "").statusCode()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload("ti-one-gang"))
                .map(w -> w.state() == WorkloadState.Finished).orElse(false));
        HttpResponse<String> ended = call(ONE, "POST", "/workloads/ti-one-gang/pods-ready", "");
        assertThat(ended.statusCode()).as(ended.body()).isEqualTo(409);
        JsonNode body = EventCodec.mapper().readTree(ended.body());
        assertThat(body.path("errors").get(0).path("field").asText()).isEqualTo("id");
        assertThat(body.path("errors").get(0).path("rule").asText()).contains("only for an admitted workload", "Finished");
        assertThat(call(ONE, "POST", "/workloads/Not_An_Id/pods-ready", "").statusCode()).isEqualTo(400);
    }

    private HttpResponse<String> call(String who, String method, String path, String body) {
        TestCredentials.Key k = keys.get(who);
        RequestSigner signer = new RequestSigner(k.accessKeyId(), k.secret());
        URI uri = URI.create("http://localhost:" + service.getPort() + path);
        return TestCredentials.send(body == null ? TestCredentials.request(signer, method, uri, null)
                : TestCredentials.request(signer, method, uri, body, "Content-Type", "application/json"));
    }
}
