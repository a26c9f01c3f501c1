package dev.taskgov.e2e;

import dev.taskgov.testsupport.DatabaseAddress;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.SharedPostgres;
import dev.taskgov.testsupport.TestCredentials;
import dev.taskgov.testsupport.FreePorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

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
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The whole platform as the local runtime runs it: a real Kafka broker and PostgreSQL (test-support),
 * the four services' built apps as child processes on free ports, the demo cluster's static topology,
 * the seed 001 teams and cluster policy created with {@code taskgov quota create --cli-input-json} and
 * {@code taskgov scheduler-config create}, the demo pipeline ({@code taskgov demo}), and a real
 * Prometheus scraping every second. Then: every query of every Grafana dashboard is valid and returns
 * data, and {@code taskgov describe workload} explains a preempted and a pending workload with numbers.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class PlatformIT {

    static final Path ROOT = projectRoot();
    static final Path WORK = Path.of("target", "e2e").toAbsolutePath();
    static final String DEMO_SEED = "42";
    /** The demo names its workloads team-kind-RUN, RUN = the seed in base 36. */
    static final String DEMO_RUN = Long.toString(42 % 46656, 36);

    static ChildProcesses processes;
    static Prometheus prometheus;
    static final Map<String, Integer> ports = new LinkedHashMap<>();
    static Map<String, String> cliEnv;

    @BeforeAll
    static void startPlatform() throws IOException {
        String promVersion = Prometheus.version();
        System.out.println("e2e: " + promVersion);
        deleteRecursively(WORK);
        processes = new ChildProcesses(WORK.resolve("logs"));
        String kafka = SharedKafka.bootstrapServers();
        DatabaseAddress db = SharedPostgres.address();
        List<String> services = List.of("quota-service", "topology-service", "admission-service", "preemption-service");
        List<Integer> free = FreePorts.distinct(services.size() + 1);
        for (int i = 0; i < services.size(); i++) {
            ports.put(services.get(i), free.get(i));
        }
        int prometheusPort = free.get(services.size());
        Map<String, String> env = new HashMap<>();
        env.put("TASKGOV_KAFKA_BOOTSTRAP", kafka);
        env.put("TASKGOV_DB_URL", db.jdbcUrl());
        env.put("TASKGOV_DB_USER", db.username());
        env.put("TASKGOV_DB_PASSWORD", db.password());
        env.put("TASKGOV_DB_MIGRATION_USER", SharedPostgres.owner().username());
        env.put("TASKGOV_DB_MIGRATION_PASSWORD", SharedPostgres.owner().password());
        env.put("TASKGOV_HTTP_HOST", "127.0.0.1");
        env.put("TASKGOV_QUOTA_PORT", String.valueOf(ports.get("quota-service")));
        env.put("TASKGOV_TOPOLOGY_PORT", String.valueOf(ports.get("topology-service")));
        env.put("TASKGOV_ADMISSION_PORT", String.valueOf(ports.get("admission-service")));
        env.put("TASKGOV_PREEMPTION_PORT", String.valueOf(ports.get("preemption-service")));
        // Access control on, as in the local runtime: quota-service writes the first admin key to the profile file.
        Path profile = WORK.resolve("credentials");
        env.put("TASKGOV_AUTH_MASTER_KEY", TestCredentials.MASTER_KEY);
        env.put("TASKGOV_AUTH_BOOTSTRAP_PROFILE", profile.toString());
        for (Map.Entry<String, Integer> s : ports.entrySet()) {
            Path app = ROOT.resolve(s.getKey()).resolve("target/quarkus-app/quarkus-run.jar");
            assertThat(app).as("the built " + s.getKey() + " (./mvnw package builds it before this module)").isRegularFile();
            List<String> command = new ArrayList<>(List.of(java(), "-Xms64m", "-Xmx384m", "-XX:+UseSerialGC"));
            // Only topology-service knows this key (the others refuse unknown taskgov.* properties).
            if (s.getKey().equals("topology-service")) {
                command.add("-Dtaskgov.topology.static-file.path=" + ROOT.resolve("deploy/local/demo-cluster.json"));
                // the cluster the demo's quotas and policy name: quota-service accepts only declared clusters
                command.add("-Dtaskgov.topology.cluster-arn=arn:aws:sagemaker:us-west-2:000000000000:cluster/taskgovdemo1");
            }
            command.addAll(List.of("-jar", app.toString()));
            // Each service logs in to the broker as its own principal, with its password of this run.
            Map<String, String> serviceEnv = new HashMap<>(env);
            String kafkaPassword = SharedKafka.password(s.getKey());
            if (kafkaPassword != null) serviceEnv.put("TASKGOV_KAFKA_PASSWORD", kafkaPassword);
            processes.start(s.getKey(), serviceEnv, command);
        }
        prometheus = Prometheus.start(processes, WORK.resolve("prometheus"), prometheusPort, ports,
                List.of(ROOT.resolve("deploy/prometheus/kueue-recording-rules.yml")));
        HttpClient http = HttpClient.newHttpClient();
        await("the four services healthy").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                .until(() -> ports.values().stream().allMatch(p -> healthy(http, p)));
        await("prometheus ready").atMost(Duration.ofMinutes(1)).until(prometheus::ready);

        cliEnv = Map.of("TASKGOV_ADMISSION_URL", "http://127.0.0.1:" + ports.get("admission-service"),
                "TASKGOV_QUOTA_URL", "http://127.0.0.1:" + ports.get("quota-service"),
                "TASKGOV_KAFKA_BOOTSTRAP", kafka,
                "TASKGOV_KAFKA_CONFIG", SharedKafka.clientConfigFile(KafkaAccess.ADMIN).toString(),
                "TASKGOV_PROFILE", profile.toString());
        Path demo = ROOT.resolve("deploy/local/demo");
        // quota-service refuses quotas beyond the capacity it has learned from the topology topic: retry until it knows the nodes.
        await("the cluster policy created").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                .until(() -> {
                    ChildProcesses.Result r = cli("scheduler-config", "create", "--cli-input-json", "file://" + demo.resolve("scheduler-config.json"));
                    if (r.exit() != 0) System.out.println("e2e: scheduler-config create: " + r.err().strip());
                    return r.exit() == 0;
                });
        try (Stream<Path> quotas = Files.list(demo.resolve("quotas"))) {
            for (Path quota : quotas.sorted().toList()) {
                await("quota " + quota.getFileName()).atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(2))
                        .until(() -> {
                            ChildProcesses.Result r = cli("quota", "create", "--cli-input-json", "file://" + quota);
                            if (r.exit() != 0) System.out.println("e2e: quota create " + quota.getFileName() + ": " + r.err().strip());
                            return r.exit() == 0;
                        });
            }
        }
        // The demo pipeline, in the background for the rest of the test: opening (borrow, reclaim, in-team
        // preemption, topology wait), then a random mix; jobs run a quarter of their nominal time.
        List<String> demoCommand = new ArrayList<>(cliCommand());
        demoCommand.addAll(List.of("demo", "--duration", "4m", "--rate", "20", "--seed", DEMO_SEED, "--time-scale", "0.25"));
        processes.start("demo", cliEnv, demoCommand);
    }

    @AfterAll
    static void stopPlatform() {
        if (processes != null) processes.close();
    }

    @Test
    void everyDashboardQueryIsValidAndReturnsDataDuringTheDemo() {
        List<Dashboards.Target> targets = Dashboards.targets(ROOT.resolve("deploy/grafana/dashboards"));
        assertThat(targets).hasSizeGreaterThanOrEqualTo(20);

        await("every dashboard query returns data").atMost(Duration.ofMinutes(5)).pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    List<String> failing = new ArrayList<>();
                    for (Dashboards.Target t : targets) {
                        String problem = prometheus.problem(t.query());
                        if (problem != null) failing.add(t + "  ->  " + problem);
                    }
                    assertThat(failing).as("dashboard queries without data (of %d)", targets.size()).isEmpty();
                });
    }

    @Test
    void everyServiceReportsItsConsumerLagAndDeadLettersFromTheStart() {
        List<String> all = List.of("admission-service", "preemption-service", "quota-service", "topology-service");
        // the Cluster utilization dashboard's queries, by service
        String lag = "sum by (service) (kafka_consumer_fetch_manager_records_lag) or sum by (service) "
                + "(taskgov_admission_processing_lag_records) or sum by (service) (taskgov_preemption_processing_lag_records)";
        String deadLetters = "sum by (service) (increase(taskgov_deadletter_records_total[5m]))";
        await("lag and dead letters of every service").atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    assertThat(services(lag)).as(lag).containsExactlyInAnyOrderElementsOf(all);
                    assertThat(services(deadLetters)).as(deadLetters).containsExactlyInAnyOrderElementsOf(all);
                });
    }

    /**
     * Kueue's metric names and labels, recorded by deploy/prometheus/kueue-recording-rules.yml from taskgov's
     * own series, answer during the demo with HyperPod's queue names and Kubernetes resource names and units.
     */
    @Test
    void kueuesMetricNamesAreRecordedFromTaskgovsDuringTheDemo() {
        String queue = "cluster_queue=~\"hyperpod-ns-team-[0-9]+-clusterqueue\"";
        String p5 = "flavor=\"ml.p5.48xlarge\", cohort=~\"arn:aws:sagemaker:.+\""; // the demo cluster's ARN
        List<String> queries = List.of(
                "kueue_pending_workloads{" + queue + ", status=~\"active|inadmissible\"}",
                "kueue_admitted_active_workloads{" + queue + "}",
                "kueue_reserving_active_workloads{" + queue + "}",
                "kueue_admitted_workloads_total{" + queue + "}",
                "kueue_quota_reserved_workloads_total{" + queue + "}",
                "kueue_admission_wait_time_seconds_bucket{" + queue + ", le=\"+Inf\"}",
                "kueue_admission_wait_time_seconds_count{" + queue + "}",
                "kueue_evicted_workloads_total{" + queue + ", reason=\"Preempted\"}",
                "kueue_cluster_queue_weighted_share{" + queue + "}",
                "kueue_cluster_queue_nominal_quota{" + queue + ", " + p5 + ", resource=\"nvidia.com/gpu\"}",
                "kueue_cluster_queue_nominal_quota{" + queue + ", " + p5 + ", resource=\"cpu\"}",
                "kueue_cluster_queue_resource_usage{" + queue + ", " + p5 + ", resource=\"memory\"}",
                "kueue_cluster_queue_borrowing_limit{" + queue + ", " + p5 + ", resource=\"nvidia.com/gpu\"}",
                "kueue_cluster_queue_lending_limit{" + queue + ", " + p5 + ", resource=\"nvidia.com/gpu\"}",
                // units: Kueue's memory is in bytes, taskgov's gauge in GiB
                "kueue_cluster_queue_nominal_quota{resource=\"memory\"} == on (cluster, cluster_queue, flavor) "
                        + "(label_replace(label_replace(taskgov_quota_nominal{cluster_arn=\"\", resource=\"memoryGiB\"}, "
                        + "\"cluster_queue\", \"hyperpod-ns-$1-clusterqueue\", \"team\", \"(.+)\"), "
                        + "\"flavor\", \"$1\", \"instance_type\", \"(.+)\") * 1073741824)");
        await("Kueue's metric names answer").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(5))
                .untilAsserted(() -> {
                    List<String> failing = new ArrayList<>();
                    for (String q : queries) {
                        String problem = prometheus.problem(q);
                        if (problem != null) failing.add(q + "  ->  " + problem);
                    }
                    assertThat(failing).as("Kueue-named queries without data (of %d)", queries.size()).isEmpty();
                });
    }

    private static List<String> services(String promql) {
        List<String> out = new ArrayList<>();
        prometheus.query(promql).path("data").path("result").forEach(r -> out.add(r.path("metric").path("service").asText()));
        return out;
    }

    @Test
    void describeExplainsAPreemptedAndAPendingWorkloadWithNumbers() {
        String preempted = "team-3-train-borrow-" + DEMO_RUN;
        String pending = "team-1-train-rack-" + DEMO_RUN;

        await("team-3's borrowing job preempted by team-5's reclaim").atMost(Duration.ofMinutes(4)).pollInterval(Duration.ofSeconds(3))
                .untilAsserted(() -> {
                    ChildProcesses.Result r = cli("describe", "workload", preempted);
                    assertThat(r.exit()).as(r.err()).isZero();
                    // Events by AGE, which may read "3m (x4 over 5m)": repeated changes are one event, as kubectl shows them
                    assertThat(r.out()).containsPattern("(?m)^\\s+\\S+(?: \\(x\\d+ over \\S+\\))?\\s+Pending\\s+Preempted\\s+.*\\d");
                });
        await("team-1's rack job pending with its reason").atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(3))
                .untilAsserted(() -> {
                    ChildProcesses.Result r = cli("describe", "workload", pending);
                    assertThat(r.exit()).as(r.err()).isZero();
                    assertThat(r.out()).containsPattern("(?m)^  State:\\s+Pending$")
                            .containsPattern("(?m)^  Reason:\\s+(TopologyPlacementFailed|InsufficientCapacity|QuotaExceeded)$")
                            .containsPattern("(?m)^  Message:\\s+.*\\d");
                });
        System.out.println(cli("describe", "workload", preempted).out());
        System.out.println(cli("describe", "workload", pending).out());
    }

    static ChildProcesses.Result cli(String... args) {
        List<String> command = new ArrayList<>(cliCommand());
        command.addAll(List.of(args));
        return ChildProcesses.run(cliEnv, command, 120);
    }

    static List<String> cliCommand() {
        Path jar = ROOT.resolve("cli/target/quarkus-app/quarkus-run.jar");
        assertThat(jar).as("the built CLI (./mvnw package builds it before this module)").isRegularFile();
        return List.of(java(), "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-jar", jar.toString());
    }

    static boolean healthy(HttpClient http, int port) {
        try {
            HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/q/health"))
                    .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
            return r.statusCode() == 200 && r.body().replace(" ", "").contains("\"status\":\"UP\"");
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    static Path projectRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("deploy/local/pom.xml"))) return p;
        }
        throw new IllegalStateException("cannot find the taskgov project root above " + Path.of("").toAbsolutePath());
    }

    static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) return;
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(p);
        }
    }
}
