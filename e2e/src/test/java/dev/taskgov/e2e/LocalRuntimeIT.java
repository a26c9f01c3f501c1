package dev.taskgov.e2e;

import org.junit.jupiter.api.AfterAll;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.taskgov.testsupport.SeedCommands;
import dev.taskgov.testsupport.FreePorts;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The local runtime script itself ({@code deploy/local/taskgov-local}) on ports and a data directory that are
 * not the defaults, as a second platform beside a first one would run: its own broker (and controller), its own
 * PostgreSQL and the four services come up healthy where the variables say. In the foreground it supervises: a
 * service killed with SIGKILL is restarted and said so in the log; after {@code taskgov-local down} from another
 * shell the foreground process ends. Before that, the seeds' {@code hyp} commands run verbatim against it.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LocalRuntimeIT {

    static final Path ROOT = PlatformIT.projectRoot();
    static final Path HOME = Path.of("target", "local-runtime").toAbsolutePath();
    static final Path SCRIPT = ROOT.resolve("deploy/local/taskgov-local");
    static final Map<String, Integer> SERVICE_PORTS = new LinkedHashMap<>();

    static ChildProcesses processes;
    static Map<String, String> env;
    static Process foreground;

    @BeforeAll
    static void up() throws IOException {
        PlatformIT.deleteRecursively(HOME);
        processes = new ChildProcesses(HOME.resolve("test-logs"));
        env = new LinkedHashMap<>();
        env.put("TASKGOV_HOME", HOME.toString());
        List<Integer> free = FreePorts.distinct(7);
        env.put("TASKGOV_KAFKA_PORT", String.valueOf(free.get(0)));
        env.put("TASKGOV_KAFKA_CONTROLLER_PORT", String.valueOf(free.get(1)));
        env.put("TASKGOV_DB_PORT", String.valueOf(free.get(2)));
        List<String> serviceVariables = List.of("TASKGOV_QUOTA_PORT", "TASKGOV_TOPOLOGY_PORT", "TASKGOV_ADMISSION_PORT",
                "TASKGOV_PREEMPTION_PORT");
        for (int i = 0; i < serviceVariables.size(); i++) {
            int port = free.get(3 + i);
            env.put(serviceVariables.get(i), String.valueOf(port));
            SERVICE_PORTS.put(serviceVariables.get(i), port);
        }
        // The runtime must bring its own broker and database here, whatever the calling environment points at.
        env.put("TASKGOV_KAFKA_BOOTSTRAP", "");
        env.put("TASKGOV_DB_URL", "");
        env.put("TASKGOV_SERVICE_JAVA_OPTS", "-Xms64m -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1");
        // From the project root, as README shows it (topology-service reads the demo cluster relative to it).
        foreground = processes.start("taskgov-local-up", env, List.of("bash", "-c",
                "cd '" + ROOT + "' && exec deploy/local/taskgov-local up --foreground"));
        HttpClient http = HttpClient.newHttpClient();
        await("the four services healthy on the ports of the variables").atMost(Duration.ofMinutes(5))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    assertThat(foreground.isAlive()).as("taskgov-local up --foreground is running; see "
                            + processes.log("taskgov-local-up")).isTrue();
                    return SERVICE_PORTS.values().stream().allMatch(p -> PlatformIT.healthy(http, p));
                });
    }

    @AfterAll
    static void down() {
        if (env != null) ChildProcesses.run(env, List.of("bash", SCRIPT.toString(), "down"), 300);
        if (processes != null) processes.close();
    }

    static final String DEMO_CLUSTER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1";

    /**
     * A HyperPod user's first steps on the README's platform, which governs two clusters: the team's quota and the
     * policy with the seeds' priority class (through the SageMaker API), {@code set-cluster-context} as hyp wants
     * it, then each seed's {@code hyp create hyp-pytorch-job} verbatim with {@code taskgov} in place of {@code hyp}.
     * Seed 000's job is admitted on the quota's instance type; seed 002 names the placeholder
     * {@code sample-instance-type}, which no cluster has: refused with the field and the rule (exit 2), before
     * anything is queued.
     */
    @Test
    @Order(1)
    void theSeedsHypCommandsRunVerbatimAfterSetClusterContext() throws Exception {
        Path input = HOME.resolve("seed-input");
        Files.createDirectories(input);
        Files.writeString(input.resolve("policy.json"), """
                {"Name": "seed-policy", "ClusterArn": "%s",
                 "SchedulerConfig": {"PriorityClasses": [{"Name": "high-priority", "Weight": 90}], "FairShare": "Enabled"}}
                """.formatted(DEMO_CLUSTER));
        Files.writeString(input.resolve("quota.json"), """
                {"Name": "team-name-quota", "ClusterArn": "%s", "ActivationState": "Enabled",
                 "ComputeQuotaConfig": {"ComputeQuotaResources": [{"InstanceType": "ml.p5.48xlarge", "Count": 2}]},
                 "ComputeQuotaTarget": {"TeamName": "team-name"}}
                """.formatted(DEMO_CLUSTER));
        // quota-service accepts a quota once it has learned the cluster's nodes from the topology topic.
        await("the seeds' policy and team quota created").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .until(() -> cli("scheduler-config", "list").out().contains("seed-policy")
                        || cli("scheduler-config", "create", "--cli-input-json", "file://" + input.resolve("policy.json")).exit() == 0);
        await("the team quota created").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .until(() -> cli("quota", "create", "--cli-input-json", "file://" + input.resolve("quota.json")).exit() == 0);

        // Without --instance-type, seed 000's command takes the type of the team's quota as admission-service holds it.
        await("the team quota in admission-service's ledger").atMost(Duration.ofMinutes(1)).pollInterval(Duration.ofSeconds(1))
                .until(() -> cli("get", "teams", "--cluster", DEMO_CLUSTER, "--team", "team-name", "-o", "json").out().contains("ml.p5.48xlarge"));

        ChildProcesses.Result context = cli("set-cluster-context", "--cluster-name", "taskgovdemo1");
        assertThat(context.exit()).as(context.err()).isZero();
        assertThat(context.out()).contains("Cluster context set to " + DEMO_CLUSTER);

        ChildProcesses.Result seed000 = cli(SeedCommands.taskgovArguments(SeedCommands.SEED_000).toArray(String[]::new));
        assertThat(seed000.exit()).as(seed000.err()).isZero();
        assertThat(seed000.out()).contains("hyp-pytorch-job/sample-pytorch-job submitted as workload sample-pytorch-job",
                "1 pod on ml.p5.48xlarge, the instance type of the team's compute quota");
        ObjectMapper json = new ObjectMapper();
        await("seed 000's job admitted").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            ChildProcesses.Result described = cli("describe", "workload", "sample-pytorch-job", "-o", "json");
            assertThat(described.exit()).as(described.err()).isZero();
            JsonNode w = json.readTree(described.out());
            assertThat(w.path("state").asText()).isEqualTo("Admitted");
            assertThat(w.path("clusterArn").asText()).isEqualTo(DEMO_CLUSTER);
        });

        ChildProcesses.Result seed002 = cli(SeedCommands.taskgovArguments(SeedCommands.SEED_002).toArray(String[]::new));
        assertThat(seed002.exit()).as(seed002.out()).isEqualTo(2);
        assertThat(seed002.err()).contains("podSets[0].instanceType: unknown instance type 'sample-instance-type'");
    }

    /** The CLI as README runs it against this platform: its key from $TASKGOV_HOME/credentials, its context beside it. */
    private static ChildProcesses.Result cli(String... args) {
        List<String> command = new ArrayList<>(PlatformIT.cliCommand());
        command.addAll(List.of(args));
        Map<String, String> cliEnv = new LinkedHashMap<>();
        cliEnv.put("TASKGOV_HOME", HOME.toString());
        cliEnv.put("TASKGOV_QUOTA_URL", "http://127.0.0.1:" + SERVICE_PORTS.get("TASKGOV_QUOTA_PORT"));
        cliEnv.put("TASKGOV_ADMISSION_URL", "http://127.0.0.1:" + SERVICE_PORTS.get("TASKGOV_ADMISSION_PORT"));
        cliEnv.put("TASKGOV_KAFKA_BOOTSTRAP", "127.0.0.1:" + env.get("TASKGOV_KAFKA_PORT"));
        return ChildProcesses.run(cliEnv, command, 120);
    }

    /**
     * A local user other than the platform's owner can read nothing of it from disk (broker segments, database
     * files, logs, keys, passwords) and cannot log in to its database without the generated password; the service's
     * own login cannot rewrite the audit trail.
     */
    @Test
    @Order(2)
    void itsStateIsItsOwnersAloneAndItsDatabaseAdmitsOnlyTheGeneratedLogins() throws Exception {
        // This test's own files (its logs, the seeds' inputs of the first test), not the runtime's.
        List<Path> testsOwn = List.of(HOME.resolve("test-logs"), HOME.resolve("seed-input"));
        List<String> readableByOthers = new ArrayList<>();
        try (var paths = Files.walk(HOME)) {
            paths.filter(p -> testsOwn.stream().noneMatch(p::startsWith) && !Files.isSymbolicLink(p)).forEach(p -> {
                try {
                    var permissions = Files.getPosixFilePermissions(p);
                    if (permissions.stream().anyMatch(x -> x.name().startsWith("GROUP") || x.name().startsWith("OTHERS"))) {
                        readableByOthers.add(java.nio.file.attribute.PosixFilePermissions.toString(permissions) + " " + p);
                    }
                } catch (java.nio.file.NoSuchFileException gone) {
                    // a segment or temporary file removed while walking
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        assertThat(readableByOthers).as("files under TASKGOV_HOME that a group or other users may use").isEmpty();
        assertThat(HOME.resolve("kafka/data")).isDirectory();
        assertThat(HOME.resolve("database/credentials.properties")).isRegularFile();

        java.util.Properties logins = new java.util.Properties();
        try (var in = Files.newBufferedReader(HOME.resolve("database/credentials.properties"))) {
            logins.load(in);
        }
        String url = "jdbc:postgresql://127.0.0.1:" + env.get("TASKGOV_DB_PORT") + "/taskgov";
        for (String[] login : List.of(new String[] {"postgres", "postgres"}, new String[] {"postgres", "x"},
                new String[] {"taskgov_quota", "postgres"}, new String[] {"taskgov_owner", "postgres"})) {
            org.assertj.core.api.Assertions.assertThatThrownBy(
                    () -> java.sql.DriverManager.getConnection(url, login[0], login[1]).close())
                    .as("login as %s with password %s", login[0], login[1])
                    .isInstanceOf(java.sql.SQLException.class).hasMessageContaining("password authentication failed");
        }
        try (var app = java.sql.DriverManager.getConnection(url, "taskgov_quota", logins.getProperty("taskgov_quota"));
             var statement = app.createStatement()) {
            for (String rewrite : List.of("update audit_event set outcome = 'Allowed'", "delete from audit_event",
                    "update access_key set roles = 'admin'")) {
                org.assertj.core.api.Assertions.assertThatThrownBy(() -> statement.execute(rewrite)).as(rewrite)
                        .hasMessageContaining("permission denied");
            }
        }
    }

    @Test
    @Order(3)
    void thePlatformMovesWithItsPortVariablesIsSupervisedInTheForegroundAndLeavesWithDown() throws Exception {
        ChildProcesses.Result status = ChildProcesses.run(env, List.of("bash", SCRIPT.toString(), "status"), 60);
        assertThat(status.out())
                .contains("127.0.0.1:" + env.get("TASKGOV_KAFKA_PORT"))
                .contains("127.0.0.1:" + env.get("TASKGOV_DB_PORT") + "/taskgov")
                .contains(HOME.resolve("kafka/data").toString());
        for (int port : SERVICE_PORTS.values()) assertThat(status.out()).containsPattern("UP\\s+http://127.0.0.1:" + port);
        assertThat(Files.readString(HOME.resolve("kafka/server.properties")))
                .contains("CONTROLLER://127.0.0.1:" + env.get("TASKGOV_KAFKA_CONTROLLER_PORT"));

        // A crash: the supervisor notices, says so and starts the service again on its port.
        long crashed = Long.parseLong(Files.readString(HOME.resolve("run/admission-service.pid")).trim());
        ProcessHandle.of(crashed).ifPresent(ProcessHandle::destroyForcibly);
        HttpClient http = HttpClient.newHttpClient();
        int admissionPort = SERVICE_PORTS.get("TASKGOV_ADMISSION_PORT");
        await("admission-service restarted by the foreground supervisor").atMost(Duration.ofMinutes(3))
                .pollInterval(Duration.ofSeconds(2))
                .until(() -> log().contains("admission-service restarted")
                        && PlatformIT.healthy(http, admissionPort));
        assertThat(log()).contains("admission-service (pid " + crashed + ") exited on its own");
        long restarted = Long.parseLong(Files.readString(HOME.resolve("run/admission-service.pid")).trim());
        assertThat(restarted).isNotEqualTo(crashed);

        // "down" from another shell: everything stops, nothing is restarted, and the foreground process leaves.
        ChildProcesses.Result down = ChildProcesses.run(env, List.of("bash", SCRIPT.toString(), "down"), 300);
        assertThat(down.exit()).as(down.err()).isZero();
        assertThat(foreground.waitFor(60, TimeUnit.SECONDS)).as("the foreground process ended after down").isTrue();
        assertThat(foreground.exitValue()).isZero();
        assertThat(log()).contains("every component was stopped").doesNotContain("preemption-service restarted");
        List<Long> alive = new ArrayList<>();
        for (String c : List.of("kafka", "postgres", "quota-service", "topology-service", "admission-service", "preemption-service")) {
            assertThat(HOME.resolve("run/" + c + ".pid")).doesNotExist();
        }
        ProcessHandle.of(restarted).filter(ProcessHandle::isAlive).ifPresent(p -> alive.add(p.pid()));
        assertThat(alive).as("no service left running").isEmpty();
    }

    private static String log() throws IOException {
        return Files.readString(processes.log("taskgov-local-up"));
    }
}
