package dev.taskgov.admission;

import com.fasterxml.jackson.databind.JsonNode;
import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.model.WorkloadState;
import dev.taskgov.client.support.auth.ProfileFile;
import dev.taskgov.testsupport.KafkaTestResource;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SignedRestAssured;
import dev.taskgov.testsupport.TestCredentials;
import io.quarkus.test.common.WithTestResource;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * docs/api.md's visibility API example as it is written there: the key taken from a profile file with the
 * documented {@code awk} line and the request signed by the real {@code curl --aws-sigv4} (curl 7.75+), against
 * admission-service started here. An admin key reads a team's queue by its ClusterQueue and by its LocalQueue (with
 * the query string of the example); another team's key is refused with 403 and an {@code AccessDeniedException}
 * that says why. Skipped, saying so, only where no {@code curl} is installed.
 */
@QuarkusTest
@WithTestResource(KafkaTestResource.class)
class CurlSigV4Test {

    private static final String TEAM = "cv-a";
    private static final String OTHER = "cv-b";
    private static final String KUEUE = "/apis/visibility.kueue.x-k8s.io/v1beta1";
    /** docs/api.md's key extraction, for the section {@code %s}, reading the profile file {@code $PROFILE}. */
    private static final String DOCUMENTED_KEY = "awk -F' *= *' '/^\\[%s\\]/{p=1;next} /^\\[/{p=0} "
            + "p&&/aws_access_key_id/{id=$2} p&&/aws_secret_access_key/{s=$2} END{print id\":\"s}' \"$PROFILE\"";

    private static Path profile;
    private static String pending;

    @TestHTTPResource("/")
    URL service;

    @Inject
    AdmissionRuntime runtime;

    @BeforeAll
    static void curlIsInstalled() {
        assumeTrue(curlVersion() != null, "curl is not installed (apt-get install curl, 7.75 or later for --aws-sigv4): "
                + "this test runs docs/api.md's curl example with the real binary");
    }

    @BeforeEach
    void setUp() throws IOException {
        if (profile != null) return;
        Properties client = new Properties();
        client.putAll(SharedKafka.adminClientProperties());
        try (DefaultTopics topics = new DefaultTopics(client)) {
            topics.cluster(2, Map.of(TEAM, 2L, OTHER, 2L));
        }
        await().atMost(Duration.ofMinutes(2)).until(() -> runtime.decider()
                .map(p -> p.quotas(ClusterArn.UNNAMED).stream().anyMatch(q -> q.team().equals(OTHER))).orElse(false));
        TestCredentials.Key admin = SignedRestAssured.keyOnTopic("/workloads", "cv-admin", "admin");
        TestCredentials.Key other = SignedRestAssured.keyOnTopic("/workloads", OTHER, "team:" + OTHER);
        profile = Files.createTempDirectory("taskgov-curl").resolve("credentials");
        ProfileFile.write(profile, new ProfileFile.Credentials("admin", admin.accessKeyId(), admin.secret()));
        ProfileFile.write(profile, new ProfileFile.Credentials(OTHER, other.accessKeyId(), other.secret()));
        // four one-accelerator pods against a quota of two (three with borrowing): it waits in the team's queue
        pending = "cv-a-waits";
        String body = new String(EventCodec.bytes(Fixtures.workload(pending, TEAM, 4, Instant.parse("2026-12-01T10:00:00Z"))),
                StandardCharsets.UTF_8);
        var submitted = TestCredentials.send(admin, "POST", URI.create(base() + "/workloads"), body, "Content-Type", "application/json");
        assertThat(submitted.statusCode()).as(submitted.body()).isEqualTo(202);
        await().atMost(Duration.ofMinutes(1)).until(() -> runtime.reads().flatMap(p -> p.workload(pending))
                .map(w -> w.state() == WorkloadState.Pending).orElse(false));
    }

    private String base() {
        return "http://localhost:" + service.getPort();
    }

    @Test
    void anAdminKeyReadsATeamsQueueWithTheDocumentedCurlCommands() throws Exception {
        Answer byClusterQueue = curl("admin", base() + KUEUE + "/clusterqueues/hyperpod-ns-" + TEAM + "-clusterqueue/pendingworkloads");
        assertThat(byClusterQueue.status()).as(byClusterQueue.body()).isEqualTo(200);
        JsonNode summary = EventCodec.mapper().readTree(byClusterQueue.body());
        assertThat(summary.path("kind").asText()).isEqualTo("PendingWorkloadsSummary");
        assertThat(summary.path("items")).singleElement().satisfies(item -> {
            assertThat(item.path("metadata").path("name").asText()).isEqualTo(pending);
            assertThat(item.path("metadata").path("namespace").asText()).isEqualTo("hyperpod-ns-" + TEAM);
            assertThat(item.path("positionInClusterQueue").asInt()).isZero();
        });

        Answer byLocalQueue = curl("admin", base() + KUEUE + "/namespaces/hyperpod-ns-" + TEAM + "/localqueues/hyperpod-ns-" + TEAM
                + "-localqueue/pendingworkloads?limit=10&offset=0");
        assertThat(byLocalQueue.status()).as(byLocalQueue.body()).isEqualTo(200);
        assertThat(EventCodec.mapper().readTree(byLocalQueue.body()).path("items").findValuesAsText("name")).containsExactly(pending);
    }

    @Test
    void anotherTeamsKeyIsRefusedWith403SayingWhy() throws Exception {
        Answer refused = curl(OTHER, base() + KUEUE + "/clusterqueues/hyperpod-ns-" + TEAM + "-clusterqueue/pendingworkloads");
        assertThat(refused.status()).as(refused.body()).isEqualTo(403);
        JsonNode body = EventCodec.mapper().readTree(refused.body());
        assertThat(body.path("__type").asText()).isEqualTo("AccessDeniedException");
        assertThat(body.path("message").asText()).contains("User: " + OTHER, "team(s) [" + OTHER + "]");
        assertThat(refused.body()).doesNotContain(pending);
        // its own team's queue it reads
        Answer own = curl(OTHER, base() + KUEUE + "/clusterqueues/hyperpod-ns-" + OTHER + "-clusterqueue/pendingworkloads");
        assertThat(own.status()).as(own.body()).isEqualTo(200);
    }

    record Answer(int status, String body) {
    }

    /** The documented commands: the key of profile {@code section} by docs/api.md's awk line, then curl --aws-sigv4. */
    private static Answer curl(String section, String url) throws Exception {
        String script = "key=\"$(" + String.format(DOCUMENTED_KEY, section) + ")\"\n"
                + "curl -s -w '\\n%{http_code}' --aws-sigv4 'aws:amz:us-west-2:taskgov' --user \"$key\" \"$URL\"\n";
        ProcessBuilder pb = new ProcessBuilder("sh", "-c", script).redirectErrorStream(true);
        pb.environment().put("PROFILE", profile.toString());
        pb.environment().put("URL", url);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("curl ended").isTrue();
        assertThat(p.exitValue()).as("curl's exit status; it printed: %s", out).isZero();
        int lastLine = out.lastIndexOf('\n');
        return new Answer(Integer.parseInt(out.substring(lastLine + 1).strip()), out.substring(0, lastLine));
    }

    /** {@code curl --version}'s first line, or null when there is no curl to run. */
    private static String curlVersion() {
        try {
            Process p = new ProcessBuilder("curl", "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0 ? List.of(out.split("\n")).get(0) : null;
        } catch (IOException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }
}
