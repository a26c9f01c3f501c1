package dev.taskgov.testsupport;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import dev.taskgov.core.events.KafkaAccess;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * A real single-node KRaft broker of its own (not the test JVM's shared one, which other tests use) that a test
 * can kill with SIGKILL and start again on the same address with the same data: what clients do across a broker
 * restart. It runs the local runtime's broker ({@code dev.taskgov.local.LocalBroker}) from {@code deploy/local/target}
 * in a child process, for the reasons given in {@link EmbeddedKafkaProcess}, configured and secured as the local
 * runtime's broker, and stops when the test JVM does.
 */
public final class RestartableKafka implements AutoCloseable {

    private static final String MAIN_CLASS = "dev.taskgov.local.ParentBoundKafka";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private final Path dir;
    private final Path config;
    private final int port;
    private Process process;
    private int starts;

    private RestartableKafka(Path dir, int port, Path config) {
        this.dir = dir;
        this.port = port;
        this.config = config;
    }

    /**
     * Prepares a fresh broker directory under this module's {@code target/restartable-kafka/<name>} (the local
     * runtime's configuration: SASL/SCRAM, ACLs, its own generated credentials), starts the broker and gives it
     * every service's principal and grants.
     */
    public static RestartableKafka start(String name) {
        try {
            Path dir = ProjectLayout.moduleTarget().resolve("restartable-kafka").resolve(name + "-" + ProcessHandle.current().pid());
            BrokerDirectory.deleteRecursively(dir);
            Files.createDirectories(dir);
            List<Integer> ports = FreePorts.distinct(2);
            int port = ports.get(0);
            BrokerDirectory.run(dir.resolve("prepare.log"), BrokerDirectory.java("dev.taskgov.local.SecureBroker", "prepare",
                    dir.toString(), String.valueOf(port), String.valueOf(ports.get(1)), "1"));
            RestartableKafka broker = new RestartableKafka(dir, port, dir.resolve("server.properties"));
            broker.launch();
            BrokerDirectory.provision(dir, broker.bootstrapServers(), 1, List.of());
            Runtime.getRuntime().addShutdownHook(new Thread(broker::close, "restartable-kafka-stop"));
            return broker;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start a restartable Kafka broker", e);
        }
    }

    public String bootstrapServers() {
        return "127.0.0.1:" + port;
    }

    /** The client settings (bootstrap address, SASL/SCRAM) of one of this broker's principals, e.g. the administrator. */
    public Map<String, Object> clientProperties(String principal) {
        return BrokerDirectory.clientProperties(bootstrapServers(), BrokerDirectory.credentials(dir), principal);
    }

    /** {@link #clientProperties} written to a file, for the CLI's --kafka-config. */
    public Path clientConfigFile(String principal) {
        return BrokerDirectory.writeClientFile(dir.getFileName() + "-" + principal, clientProperties(principal));
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

    private void launch() {
        starts++;
        Path log = dir.resolve("broker-" + starts + ".log");
        List<String> command = BrokerDirectory.java(MAIN_CLASS, config.toString());
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start the broker", e);
        }
        awaitReady(log);
    }

    private void awaitReady(Path log) {
        Properties props = new Properties();
        props.putAll(clientProperties(KafkaAccess.ADMIN));
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
