package dev.taskgov.testsupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node KRaft broker of its own (not the test JVM's shared one, which other tests use) that a test
 * can kill with SIGKILL and start again on the same address with the same data: what clients do across a broker
 * restart. It runs {@code kafka.Kafka} from {@code deploy/local/target} in a child process, for the reasons
 * given in {@link EmbeddedKafkaProcess}, and stops when the test JVM does.
 */
public final class RestartableKafka implements AutoCloseable {

    private static final String MAIN_CLASS = "dev.taskgov.local.ParentBoundKafka";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Path config;
    private final int port;
    private Process process;
    private int starts;

    private RestartableKafka(Path dir, int port, int controllerPort) throws IOException {
        this.dir = dir;
        this.port = port;
        this.config = dir.resolve("server.properties");
        Files.writeString(config, String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port,
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=1",
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                "group.min.session.timeout.ms=500",
                ""));
    }

    /** Formats a fresh data directory under this module's {@code target/restartable-kafka/<name>} and starts the broker. */
    public static RestartableKafka start(String name) {
        try {
            Path dir = ProjectLayout.moduleTarget().resolve("restartable-kafka").resolve(name + "-" + ProcessHandle.current().pid());
            deleteRecursively(dir);
            Files.createDirectories(dir);
            RestartableKafka broker = new RestartableKafka(dir, freePort(), freePort());
            broker.format();
            broker.launch();
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "restartable-kafka-stop"));
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a restartable Kafka broker", e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** Kills the broker as {@code kill -9} would: no controlled shutdown, nothing flushed on purpose. */
    public synchronized void kill() {
        if (process == null) return;
        process.destroyForcibly();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process = null;
    }

    /** Starts the broker again on the same ports with the same data; returns once it answers. */
    public synchronized void restart() {
        if (process != null) throw new IllegalStateException("the broker is running; kill() it first");
        launch();
    }

    private void format() throws IOException {
        List<String> command = java();
        command.addAll(List.of("kafka.tools.StorageTool", "format", "--standalone", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString()));
        Path log = dir.resolve("format.log");
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException("formatting the broker's storage failed; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while formatting the broker's storage", e);
        }
    }

    private void launch() {
        starts++;
        Path log = dir.resolve("broker-" + starts + ".log");
        List<String> command = java();
        command.addAll(List.of(MAIN_CLASS, config.toString()));
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the broker", e);
        }
        awaitReady(log);
    }

    private void awaitReady(Path log) {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        props.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        try (Admin admin = Admin.create(props)) {
            while (System.nanoTime() < deadline) {
                try {
                    admin.describeCluster().nodes().get(3, TimeUnit.SECONDS);
                    return;
                } catch (Exception notYet) {
                    // Waits for the child to exit, or 200 ms: both a poll interval and a crash check.
                    if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                        throw new IllegalStateException("the broker exited with " + process.exitValue() + "; see " + log);
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        throw new IllegalStateException("the broker did not answer within " + STARTUP_TIMEOUT + "; see " + log);
    }

    private static List<String> java() {
        Path runtime = ProjectLayout.root().resolve("deploy/local/target");
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ArrayList<>(List.of(javaBin, "-Xms128m", "-Xmx512m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-cp", runtime.resolve("classes") + File.pathSeparator + runtime.resolve("lib") + File.separator + "*"));
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var all = Files.walk(p)) {
            for (Path f : all.sorted(java.util.Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }

    /** Stops the broker in order (it leaves when its standard input closes). */
    @Override
    public synchronized void close() {
        if (process == null) return;
        try {
            process.getOutputStream().close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        process = null;
    }
}
