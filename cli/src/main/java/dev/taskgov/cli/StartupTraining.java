package dev.taskgov.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.taskgov.client.support.auth.ProfileFile;
import picocli.CommandLine;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run the {@code taskgov} wrapper makes once after each build to list the classes of the class-data-sharing archive
 * that every later command starts from (docs/benchmarks.md, "CLI start time"). It runs the ordinary commands in this JVM, each
 * signed with a throw-away key against a stand-in for the services on a loopback port, so the archive holds what they
 * load: picocli's command model, the profile file, the AWS SDK's SigV4 signer and its crypto, the HTTP client,
 * Jackson's tree reading and writing, the tables, and the SDK's SageMaker client with its JSON protocol. An archive
 * written by whatever command happened to run first (say {@code --help}) held none of the signing and HTTP classes.
 * <p>
 * Nothing leaves the machine and nothing is printed but the commands that failed (the archive is still written, only
 * with fewer classes); the tests check that none fails.
 */
public final class StartupTraining {

    /** The signing key of the training requests: not a real key, the stand-in checks no signature. */
    private static final ProfileFile.Credentials KEY = new ProfileFile.Credentials("admin", "TGAKSTARTUPTRAINING01", "startup-training");

    private static final String CLUSTER = "arn:aws:sagemaker:us-west-2:000000000000:cluster/training";
    private static final String WORKLOAD = """
            {"workloadId":"team-a-train-1","team":"team-a","state":"Admitted","reason":"Admitted","message":"admitted",
             "submittedAt":"2026-01-01T10:00:00Z","admittedAt":"2026-01-01T10:00:01Z",
             "placement":[{"name":"worker","instanceType":"ml.p5.48xlarge",
               "domain":{"level":"topology.k8s.aws/network-node-layer-3","value":"nn-1"},"nodes":[{"name":"p5-1","count":8}]}],
             "borrowed":{"ml.p5.48xlarge":{"accelerators":8}},
             "history":[{"time":"2026-01-01T10:00:00Z","state":"Pending","reason":"Submitted","message":"queued"},
                        {"time":"2026-01-01T10:00:01Z","state":"Admitted","reason":"Admitted","message":"admitted"}]}""";
    private static final String AMOUNTS = "{\"ml.p5.48xlarge\":{\"accelerators\":8,\"vcpu\":192,\"memoryGiB\":2048}}";
    /** As quota-service answers, with the amounts a Count stands for (fractional numbers: the SDK's float parser). */
    private static final String QUOTA = """
            {"ComputeQuotaArn":"arn:aws:sagemaker:us-west-2:000000000000:compute-quota/q1","ComputeQuotaId":"q1","Name":"team-a",
             "ComputeQuotaVersion":1,"Status":"Created","ClusterArn":"%s",
             "ComputeQuotaConfig":{"ComputeQuotaResources":[{"InstanceType":"ml.p5.48xlarge","Count":2,
               "Accelerators":16,"VCpu":384.0,"MemoryInGiB":4096.0}],
               "ResourceSharingConfig":{"Strategy":"LendAndBorrow","BorrowLimit":50},"PreemptTeamTasks":"LowerPriority"},
             "ComputeQuotaTarget":{"TeamName":"team-a","FairShareWeight":100},"ActivationState":"Enabled",
             "CreationTime":1767261600.0,"LastModifiedTime":1767261600.0}""".formatted(CLUSTER);

    /** The stand-in's answers: "METHOD path" (query left out), or the SageMaker operation for {@code POST /}. */
    private static final Map<String, String> ANSWERS = Map.of(
            "GET /workloads", "[" + WORKLOAD + "]",
            "GET /workloads/team-a-train-1", WORKLOAD,
            "POST /workloads", "{\"workloadId\":\"team-a-train-2\",\"message\":\"published\"}",
            "GET /teams", "{\"clusterArn\":\"" + CLUSTER + "\",\"count\":1,\"teams\":[{\"team\":\"team-a\",\"pending\":1,"
                    + "\"pendingByReason\":{\"QuotaExceeded\":1},\"instanceTypes\":{\"ml.p5.48xlarge\":{\"nominal\":{\"accelerators\":16},"
                    + "\"used\":{\"accelerators\":8},\"borrowed\":{\"accelerators\":0},\"lent\":{\"accelerators\":0}}}}]}",
            "GET /clusters", "{\"clusters\":[{\"clusterArn\":\"" + CLUSTER + "\",\"nodes\":2,\"readyNodes\":2,\"capacity\":" + AMOUNTS
                    + ",\"quota\":" + AMOUNTS + ",\"used\":" + AMOUNTS + ",\"workloads\":{\"Admitted\":1},\"fairShare\":true,"
                    + "\"priorityClasses\":{\"high\":1}}]}",
            "SageMaker.ListComputeQuotas", "{\"ComputeQuotaSummaries\":[" + QUOTA + "]}",
            "SageMaker.DescribeComputeQuota", QUOTA);

    private StartupTraining() {
    }

    public static void main(String[] args) {
        TaskgovMain.quietLibraryLogging(); // as the commands start, so the archive holds what they load
        List<String> failed = run();
        failed.forEach(f -> System.err.println("startup training: " + f));
        System.exit(0); // a failed command only leaves its classes out of the archive
    }

    /** Runs the training commands; returns each one that did not succeed, with what it printed. */
    static List<String> run() {
        Path profileDir = null;
        HttpServer services = standIn();
        try {
            profileDir = Files.createTempDirectory("taskgov-startup-training");
            Path profile = profileDir.resolve("credentials");
            ProfileFile.write(profile, KEY);
            String url = "http://127.0.0.1:" + services.getAddress().getPort();
            List<String> at = List.of("--admission-url", url, "--quota-url", url, "--profile-file", profile.toString());
            List<String> failed = new ArrayList<>();
            for (List<String> command : List.of(
                    List.of("get", "workloads"),
                    List.of("get", "workloads", "-o", "json"),
                    List.of("describe", "workload", "team-a-train-1"),
                    List.of("get", "teams"),
                    List.of("get", "clusters"),
                    List.of("submit", "--job-name", "team-a-train-2", "--team", "team-a", "--instance-type", "ml.p5.48xlarge",
                            "--accelerators", "8"),
                    // Seed 000's hyp command (as a workload, without --kubernetes): its flags' model and notes, the
                    // instance type of the team's quota (admission-service's GET /teams), the topology annotation.
                    List.of("create", "hyp-pytorch-job", "--version", "1.1", "--job-name", "team-a-train-3", "--image",
                            "training:1", "--pull-policy", "Always", "--tasks-per-node", "1", "--max-retry", "1",
                            "--priority", "high-priority", "--namespace", "hyperpod-ns-team-a",
                            "--queue-name", "hyperpod-ns-team-a-localqueue",
                            "--preferred-topology-label", "topology.k8s.aws/network-node-layer-1"),
                    List.of("quota", "list"),
                    List.of("quota", "describe", "q1"))) {
                List<String> args = new ArrayList<>(command);
                args.addAll(at);
                String problem = runOne(args);
                if (problem != null) failed.add(String.join(" ", command) + ": " + problem);
            }
            String help = runOne(List.of("--help"));
            if (help != null) failed.add("--help: " + help);
            return failed;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            services.stop(0);
            deleteQuietly(profileDir);
        }
    }

    /** Null when the command exits 0, else its exit code and what it wrote to stderr. */
    private static String runOne(List<String> args) {
        java.io.StringWriter err = new java.io.StringWriter();
        CommandLine cmd = TaskgovMain.commandLine(args.toArray(String[]::new));
        cmd.setOut(new PrintWriter(Writer.nullWriter()));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args.toArray(String[]::new));
        return exit == 0 ? null : "exit " + exit + ": " + err.toString().strip();
    }

    private static HttpServer standIn() {
        try {
            HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            server.createContext("/", StartupTraining::answer);
            server.start();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void answer(HttpExchange ex) throws IOException {
        ex.getRequestBody().readAllBytes();
        String target = ex.getRequestHeaders().getFirst("X-Amz-Target");
        String body = ANSWERS.get(target != null ? target : ex.getRequestMethod() + " " + ex.getRequestURI().getPath());
        byte[] bytes = (body == null ? "{\"message\":\"the startup training has no answer for this\"}" : body)
                .getBytes(StandardCharsets.UTF_8);
        ex.getResponseHeaders().add("Content-Type", target != null ? "application/x-amz-json-1.1" : "application/json");
        ex.sendResponseHeaders(body == null ? 404 : 200, bytes.length);
        ex.getResponseBody().write(bytes);
        ex.close();
    }

    private static void deleteQuietly(Path dir) {
        if (dir == null) return;
        try {
            Files.deleteIfExists(dir.resolve("credentials"));
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // a temporary directory left behind holds only the throw-away training key
        }
    }
}
