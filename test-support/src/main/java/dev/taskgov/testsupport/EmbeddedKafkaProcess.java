package dev.taskgov.testsupport;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A single-node KRaft broker, configured as the local runtime's (SASL/SCRAM only, ACLs enforced, every service's
 * principal provisioned: {@code dev.taskgov.local.TestKafkaBroker}), running as a child process. Its passwords are
 * generated for this run in its directory ({@link #credentials()}).
 *
 * <p>It runs outside the test JVM because the broker's classes (Scala, Kafka server) clash with a
 * Quarkus application's test classpath. Its classpath is {@code deploy/local/target/classes} and
 * {@code deploy/local/target/lib/*}, which the build fills before any test runs. The child stops when
 * our end of its standard input closes, so even a killed test JVM leaves no broker behind.
 */
final class EmbeddedKafkaProcess {

    private static final String MAIN_CLASS = "dev.taskgov.local.TestKafkaBroker";
    private static final Duration STARTUP_TIMEOUT = Duration.ofSeconds(120);

    private final Process process;
    private final OutputStream keepAlive;
    private final String bootstrapServers;
    private final Path dir;

    private EmbeddedKafkaProcess(Process process, String bootstrapServers, Path dir) {
        this.process = process;
        this.keepAlive = process.getOutputStream();
        this.bootstrapServers = bootstrapServers;
        this.dir = dir;
    }

    static EmbeddedKafkaProcess start() {
        Path runtime = ProjectLayout.root().resolve("deploy/local/target");
        Path classes = runtime.resolve("classes");
        Path lib = runtime.resolve("lib");
        if (!Files.isDirectory(classes) || !Files.isDirectory(lib)) {
            throw new IllegalStateException("the embedded Kafka broker needs " + classes + " and " + lib
                    + "; build them first with: ./mvnw -q -pl deploy/local process-classes"
                    + " (or run the tests from the project root: ./mvnw verify)");
        }
        try {
            Path work = Files.createDirectories(ProjectLayout.moduleTarget().resolve("embedded-kafka"));
            Path bootstrapFile = work.resolve("bootstrap-" + ProcessHandle.current().pid());
            Files.deleteIfExists(bootstrapFile);
            Path log = work.resolve("broker-" + ProcessHandle.current().pid() + ".log");
            Path dir = work.resolve("broker-" + ProcessHandle.current().pid());
            BrokerDirectory.deleteRecursively(dir);
            ProcessBuilder builder = new ProcessBuilder(BrokerDirectory.java(MAIN_CLASS, dir.toString(), bootstrapFile.toString()))
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile());
            Process process = builder.start();
            String bootstrap = awaitBootstrap(process, bootstrapFile, log);
            EmbeddedKafkaProcess broker = new EmbeddedKafkaProcess(process, bootstrap, dir);
            Runtime.getRuntime().addShutdownHook(new Thread(broker::stop, "embedded-kafka-stop"));
            return broker;
        } catch (IOException e) {
            throw new IllegalStateException("could not start the embedded Kafka broker", e);
        }
    }

    private static String awaitBootstrap(Process process, Path bootstrapFile, Path log) throws IOException {
        long deadline = System.nanoTime() + STARTUP_TIMEOUT.toNanos();
        try {
            while (System.nanoTime() < deadline) {
                if (Files.exists(bootstrapFile)) {
                    return Files.readString(bootstrapFile, StandardCharsets.UTF_8).trim();
                }
                // Waits for the child to exit, or 100 ms: both a poll interval and a crash check.
                if (process.waitFor(100, TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the embedded Kafka broker exited with " + process.exitValue()
                            + " before it was ready; see " + log);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroyForcibly();
        throw new IllegalStateException("the embedded Kafka broker was not ready within " + STARTUP_TIMEOUT
                + "; see " + log);
    }

    String bootstrapServers() {
        return bootstrapServers;
    }

    /** The broker's directory: its credentials file, and what {@link BrokerDirectory#provision} needs. */
    Path dir() {
        return dir;
    }

    void stop() {
        try {
            keepAlive.close();
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }
}
