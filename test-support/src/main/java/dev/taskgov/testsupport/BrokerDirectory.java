package dev.taskgov.testsupport;

import java.io.File;
import java.io.IOException;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.KafkaAccess;

/**
 * The directory of a broker that test-support starts from {@code deploy/local} ({@code SecureBroker}): its
 * generated credentials, and the launchers' classpath. Provisioning (principals, ACLs, team topics) runs the local
 * runtime's own {@code KafkaProvisioning} in a child process, so tests get exactly the grants the runtime creates.
 */
final class BrokerDirectory {

    private BrokerDirectory() {
    }

    /**
     * The launchers' and the broker's classpath: deploy/local's classes and libraries, core's classes (the ACL
     * catalog, the audit record) and service-support's (the audit record's CloudEvents headers).
     */
    static String classpath() {
        Path root = ProjectLayout.root();
        Path runtime = root.resolve("deploy/local/target");
        return runtime.resolve("classes") + File.pathSeparator + runtime.resolve("lib") + File.separator + "*"
                + File.pathSeparator + root.resolve("core/target/classes")
                + File.pathSeparator + root.resolve("service-support/target/classes");
    }

    static List<String> java(String mainClass, String... args) {
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> command = new ArrayList<>(List.of(javaBin, "-Xms64m", "-Xmx512m", "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1", "-cp", classpath(), mainClass));
        command.addAll(List.of(args));
        return command;
    }

    /** principal = password, as the broker's launcher generated them. */
    static Properties credentials(Path dir) {
        return load(dir.resolve("credentials.properties"));
    }

    /** A credentials file (principal = password). */
    static Properties load(Path file) {
        Properties credentials = new Properties();
        try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            credentials.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the broker's credentials " + file, e);
        }
        return credentials;
    }

    /**
     * A principal's client settings: the bootstrap address and, when the broker is secured ({@code credentials}
     * not null), its SASL/SCRAM login.
     */
    static Map<String, Object> clientProperties(String bootstrap, Properties credentials, String principal) {
        Map<String, Object> props = new HashMap<>();
        props.put("bootstrap.servers", bootstrap);
        if (credentials != null) {
            String password = credentials.getProperty(principal);
            if (password == null) throw new IllegalArgumentException("the broker at " + bootstrap + " has no principal " + principal);
            props.putAll(KafkaAccess.clientProperties(principal, password));
        }
        return props;
    }

    /**
     * Writes client settings to a properties file (owner-only: it holds a password) under this module's target
     * directory, for a client that reads its login from a file (the CLI's {@code --kafka-config}); returns it.
     */
    static Path writeClientFile(String name, Map<String, Object> clientProperties) {
        try {
            Path dir = Files.createDirectories(ProjectLayout.moduleTarget().resolve("kafka-clients"));
            Path file = dir.resolve(name + "-" + ProcessHandle.current().pid() + ".properties");
            Properties props = new Properties();
            clientProperties.forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
            Files.deleteIfExists(file);
            try {
                Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
            } catch (UnsupportedOperationException notPosix) {
                Files.createFile(file);
            }
            try (var out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
                props.store(out, "Kafka client settings of a test (generated)");
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write Kafka client settings", e);
        }
    }

    /** Runs the local runtime's provisioning (idempotent) for these teams: their principals, grants and topics. */
    static void provision(Path dir, String bootstrap, int partitions, List<String> teams) {
        List<String> args = new ArrayList<>(List.of(dir.toString(), bootstrap, String.valueOf(partitions)));
        args.addAll(teams);
        run(dir.resolve("provision.log"), java("dev.taskgov.local.KafkaProvisioning", args.toArray(String[]::new)));
    }

    static void run(Path log, List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(command.get(command.indexOf("-cp") + 2) + " failed; see " + log);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + command, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    static void deleteRecursively(Path p) throws IOException {
        if (!Files.exists(p)) return;
        try (var all = Files.walk(p)) {
            for (Path f : all.sorted(Comparator.reverseOrder()).toList()) Files.delete(f);
        }
    }
}
