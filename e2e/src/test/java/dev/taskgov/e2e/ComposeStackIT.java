package dev.taskgov.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.taskgov.testsupport.FreePorts;

/**
 * {@code docker compose up} as a user types it (docker-compose.yml, the images of deploy/docker), on
 * free host ports under its own project name: a team's quota through the SageMaker API, a workload
 * submitted through Kafka, its admission read over HTTP, Prometheus scraping every service; then
 * {@code down -v}.
 *
 * <p>Needs a Docker engine (DOCKER_HOST) with Compose. Without one its tests are skipped with the reason; with
 * {@code -De2e.docker.required=true} (the Docker step of .ci/run) it fails instead.
 */
@Timeout(value = 12, unit = TimeUnit.MINUTES)
class ComposeStackIT {

    static final Path ROOT = PlatformIT.projectRoot();
    static final Path COMPOSE = ROOT.resolve("deploy/docker/compose");
    static final String PROJECT = "taskgov-e2e-" + ProcessHandle.current().pid();
    /** Host-port variables of docker-compose.yml, each given a free port. */
    static final List<String> PORT_VARIABLES = List.of("TASKGOV_KAFKA_PORT", "TASKGOV_DB_PORT", "TASKGOV_QUOTA_PORT",
            "TASKGOV_TOPOLOGY_PORT", "TASKGOV_ADMISSION_PORT", "TASKGOV_PREEMPTION_PORT", "TASKGOV_WATCHER_PORT",
            "TASKGOV_PROMETHEUS_PORT");
    static final List<String> SCRAPED = List.of("quota-service", "topology-service", "admission-service",
            "preemption-service", "job-watcher");

    static final Map<String, String> env = new LinkedHashMap<>();
    static final HttpClient http = HttpClient.newHttpClient();
    static final ObjectMapper json = new ObjectMapper();
    static boolean up;

    /** Why this test cannot run here (no engine, no Compose), or null. */
    static String notRunBecause;

    @BeforeAll
    static void composeUp() {
        String engine = engineProblem();
        if (engine != null) {
            notRunBecause = "docker compose e2e not run: " + engine
                    + " (.ci/run's Docker step runs it with an engine of its own: README \"With Docker\")";
            System.out.println(notRunBecause);
            assertThat(Boolean.getBoolean("e2e.docker.required")).as(notRunBecause).isFalse();
            return;
        }
        up = true;
        ChildProcesses.Result r = upOnFreePorts();
        assertThat(r.exit()).as("compose up: " + r.err()).isZero();
        await("every service healthy").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(2))
                .untilAsserted(() -> assertThat(unhealthy()).isEmpty());
    }

    /**
     * {@code up -d} with every host port free when chosen. Another process may still take one before Docker binds it
     * (the ports come from the range the kernel also gives outgoing connections); only that failure is retried, on
     * fresh ports after taking the half-started stack down, at most three times.
     */
    static ChildProcesses.Result upOnFreePorts() {
        ChildProcesses.Result r = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            List<Integer> ports = FreePorts.distinct(PORT_VARIABLES.size());
            for (int i = 0; i < PORT_VARIABLES.size(); i++) {
                env.put(PORT_VARIABLES.get(i), String.valueOf(ports.get(i)));
            }
            r = compose(600, "up", "-d", "--no-build");
            if (r.exit() == 0 || !r.err().contains("port is already allocated")) return r;
            System.out.println("compose up attempt " + attempt + ": a host port was taken before Docker bound it; again on others");
            compose(300, "down", "-v", "--remove-orphans");
        }
        return r;
    }

    /** Each test is reported as skipped with the reason, rather than the class vanishing from the counts. */
    @BeforeEach
    void engineAnswers() {
        Assumptions.assumeTrue(notRunBecause == null, () -> notRunBecause);
    }

    @AfterAll
    static void composeDown() {
        if (!up) return;
        ChildProcesses.Result ps = compose(60, "ps");
        System.out.println(ps.out());
        ChildProcesses.Result logs = compose(120, "logs", "--no-color", "--tail", "40");
        System.out.println(logs.out());
        ChildProcesses.Result down = compose(300, "down", "-v", "--remove-orphans");
        assertThat(down.exit()).as("compose down: " + down.err()).isZero();
    }

    @Test
    void aQuotaThroughSageMakerAndASubmissionThroughKafkaGiveAnAdmissionReadOverHttp() throws Exception {
        // Access control is on in the stack too: quota-service writes the first admin key to the profile file in the
        // secrets volume; the CLI signs with it (as README "With Docker" says to copy it out).
        Path profile = Files.createTempFile("taskgov-compose-profile", ".ini");
        await("quota-service's admin key in the secrets volume").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    ChildProcesses.Result key = compose(60, "exec", "-T", "quota-service", "cat", "/var/lib/taskgov-secrets/credentials");
                    if (key.exit() != 0 || !key.out().contains("aws_access_key_id")) return false;
                    Files.writeString(profile, key.out());
                    return true;
                });
        Map<String, String> cliEnv = Map.of(
                "TASKGOV_QUOTA_URL", url("TASKGOV_QUOTA_PORT"),
                "TASKGOV_ADMISSION_URL", url("TASKGOV_ADMISSION_PORT"),
                "TASKGOV_KAFKA_BOOTSTRAP", "127.0.0.1:" + env.get("TASKGOV_KAFKA_PORT"),
                "TASKGOV_PROFILE", profile.toString());
        Path demo = ROOT.resolve("deploy/local/demo");
        // quota-service refuses quotas beyond the capacity it has learned from the topology topic: the
        // demo inventory (mounted into topology-service) must reach it first.
        await("team-1's quota created (CreateComputeQuota)").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .until(() -> cli(cliEnv, "quota", "create", "--cli-input-json", "file://" + demo.resolve("quotas/team-1.json"))
                        .exit() == 0);
        assertThat(cli(Map.of("TASKGOV_QUOTA_URL", url("TASKGOV_QUOTA_PORT"), "TASKGOV_PROFILE", "/nonexistent"),
                "quota", "list").exit()).as("without the key quota-service refuses").isNotZero();
        ChildProcesses.Result listed = cli(cliEnv, "quota", "list", "--name-contains", "team-1", "-o", "json");
        assertThat(listed.exit()).as(listed.err()).isZero();
        assertThat(listed.out()).contains("\"team-1-quota\"");

        ChildProcesses.Result submitted = cli(cliEnv, "submit", "--kafka", "--team", "team-1", "--job-name", "compose-e2e",
                "--instance-type", "ml.p5.48xlarge", "--node-count", "2", "--accelerators", "8");
        assertThat(submitted.exit()).as(submitted.err()).isZero();
        Matcher id = Pattern.compile("workload/(\\S+) submitted").matcher(submitted.out());
        assertThat(id.find()).as(submitted.out()).isTrue();

        await("the workload admitted, read from admission-service").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .ignoreExceptions()
                .untilAsserted(() -> {
                    ChildProcesses.Result described = cli(cliEnv, "describe", "workload", id.group(1), "-o", "json");
                    assertThat(described.exit()).as(described.err()).isZero();
                    JsonNode workload = json.readTree(described.out());
                    assertThat(workload.path("team").asText()).isEqualTo("team-1");
                    assertThat(workload.path("state").asText()).isEqualToIgnoringCase("Admitted");
                });
    }

    @Test
    void prometheusScrapesEveryServiceAndTheJobWatcher() {
        await("every scrape target up").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2)).ignoreExceptions()
                .untilAsserted(() -> {
                    Map<String, String> health = new HashMap<>();
                    get(url("TASKGOV_PROMETHEUS_PORT") + "/api/v1/targets").path("data").path("activeTargets")
                            .forEach(t -> health.put(t.path("labels").path("service").asText(), t.path("health").asText()));
                    assertThat(health).containsOnlyKeys(SCRAPED).allSatisfy((service, state) -> assertThat(state).isEqualTo("up"));
                });
    }

    /** Null when an engine answers and Compose is installed; else what is missing. */
    static String engineProblem() {
        try {
            ChildProcesses.Result version = ChildProcesses.run(Map.of(), List.of("docker", "version", "--format", "{{.Server.Version}}"), 30);
            if (version.exit() != 0) {
                return "no Docker engine answers (" + firstLine(version.err()) + ")";
            }
            ChildProcesses.Result compose = ChildProcesses.run(Map.of(), List.of(COMPOSE.toString(), "version"), 30);
            if (compose.exit() != 0) {
                return firstLine(compose.err());
            }
            return null;
        } catch (RuntimeException e) {
            return "no docker command (" + e.getMessage() + ")";
        }
    }

    /** Services of the project whose health is not "healthy" (one-shot kafka-topics: not "exited (0)"). */
    static List<String> unhealthy() {
        List<String> problems = new ArrayList<>();
        for (String service : List.of("kafka", "postgres", "quota-service", "topology-service", "admission-service",
                "preemption-service", "job-watcher", "prometheus")) {
            ChildProcesses.Result id = compose(60, "ps", "-q", service);
            String container = id.out().strip();
            if (container.isEmpty()) {
                problems.add(service + ": no container");
                continue;
            }
            ChildProcesses.Result state = ChildProcesses.run(Map.of(),
                    List.of("docker", "inspect", "-f", "{{.State.Status}} {{if .State.Health}}{{.State.Health.Status}}{{end}}", container), 30);
            if (!state.out().strip().equals("running healthy")) {
                problems.add(service + ": " + state.out().strip());
            }
        }
        return problems;
    }

    static ChildProcesses.Result compose(long timeoutSeconds, String... args) {
        List<String> command = new ArrayList<>(List.of(COMPOSE.toString(), "-p", PROJECT));
        command.addAll(List.of(args));
        return ChildProcesses.run(env, command, timeoutSeconds);
    }

    static ChildProcesses.Result cli(Map<String, String> cliEnv, String... args) {
        List<String> command = new ArrayList<>(PlatformIT.cliCommand());
        command.addAll(List.of(args));
        return ChildProcesses.run(cliEnv, command, 120);
    }

    static String url(String portVariable) {
        return "http://127.0.0.1:" + env.get(portVariable);
    }

    static JsonNode get(String url) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(url + ": " + r.body()).isEqualTo(200);
        return json.readTree(r.body());
    }

    static String firstLine(String text) {
        String stripped = text.strip();
        int newline = stripped.indexOf('\n');
        return newline < 0 ? stripped : stripped.substring(0, newline);
    }
}
