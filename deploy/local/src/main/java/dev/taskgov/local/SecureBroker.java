package dev.taskgov.local;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.PrivateFiles;
import org.apache.kafka.common.Uuid;

/**
 * The one way taskgov configures a broker (the local runtime's, test-support's embedded and restartable ones):
 * a single KRaft node whose client listener takes only SASL/SCRAM and whose authorizer is KRaft's
 * {@code StandardAuthorizer} ({@link AuditingAuthorizer}, which also audits its refusals), with no ACL meaning no
 * access. The controller listener (broker to controller, in
 * the same process) uses SASL/PLAIN with a principal of its own, as KRaft keeps SCRAM credentials in the
 * metadata the controller serves and so cannot use them to authenticate its own listener. The client listener also
 * takes PLAIN, checked against the same credentials ({@link CredentialsFilePlainCallback}), for {@code kcat}.
 *
 * <p>A broker directory holds {@code credentials.properties} (principal = password, generated at first use with
 * {@link SecureRandom}, readable by its owner only; never committed: it lives under TASKGOV_HOME or a test's
 * target directory), {@code server.properties} (written at each start, owner-only too, as it holds the
 * controller's and the administrator's passwords) and {@code data/}.
 *
 * <p>Usage: {@code SecureBroker prepare <dir> <port> <controller-port> <partitions>}: credentials, configuration,
 * and the storage formatted with the administrator's SCRAM credential unless it is formatted already.
 */
public final class SecureBroker {

    /** The controller listener's own principal (SASL/PLAIN); a super user like the administrator. */
    static final String CONTROLLER = "taskgov-controller";
    static final String CREDENTIALS = "credentials.properties";
    private static final String ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";
    private static final SecureRandom RANDOM = new SecureRandom();

    private SecureBroker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5 || !"prepare".equals(args[0])) {
            System.err.println("usage: SecureBroker prepare <dir> <port> <controller-port> <partitions>");
            System.exit(2);
        }
        prepare(Path.of(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]), Integer.parseInt(args[4]));
    }

    /** Writes the credentials (once), the configuration, and formats the storage unless it is formatted. */
    static Path prepare(Path dir, int port, int controllerPort, int partitions) throws IOException, InterruptedException {
        Files.createDirectories(dir.resolve("data"));
        Properties credentials = credentials(dir);
        Path config = dir.resolve("server.properties");
        PrivateFiles.write(config, serverProperties(dir, port, controllerPort, partitions, credentials));
        if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
            format(config, credentials.getProperty(KafkaAccess.ADMIN), dir.resolve("format.log"));
        }
        return config;
    }

    /**
     * The broker directory's credentials: the administrator's, the controller's and every service's, each
     * generated the first time it is asked for and kept from then on.
     */
    static synchronized Properties credentials(Path dir) throws IOException {
        List<String> principals = new ArrayList<>(List.of(KafkaAccess.ADMIN, CONTROLLER));
        principals.addAll(KafkaAccess.SERVICES);
        return credentials(dir, principals);
    }

    /** The credentials file with a password for each principal given (new ones generated and saved). */
    static synchronized Properties credentials(Path dir, List<String> principals) throws IOException {
        Path file = dir.resolve(CREDENTIALS);
        Properties credentials = new Properties();
        if (Files.exists(file)) {
            try (Reader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                credentials.load(in);
            }
        }
        boolean added = false;
        for (String principal : principals) {
            if (!credentials.containsKey(principal)) {
                credentials.setProperty(principal, password());
                added = true;
            }
        }
        if (added) {
            StringBuilder text = new StringBuilder();
            try (Writer out = new java.io.StringWriter()) {
                credentials.store(out, "Kafka SASL/SCRAM passwords of this broker (principal = password); generated,"
                        + " never commit this file");
                text.append(out);
            }
            PrivateFiles.write(file, text.toString());
        }
        return credentials;
    }

    private static String password() {
        StringBuilder s = new StringBuilder(32);
        for (int i = 0; i < 32; i++) s.append(ALPHABET.charAt(RANDOM.nextInt(ALPHABET.length())));
        return s.toString();
    }

    static String serverProperties(Path dir, int port, int controllerPort, int partitions, Properties credentials) {
        String admin = credentials.getProperty(KafkaAccess.ADMIN);
        String controller = credentials.getProperty(CONTROLLER);
        return String.join("\n",
                "# Written by taskgov's SecureBroker at every start: single-node KRaft (broker + controller in one process),",
                "# SASL/SCRAM on the client listener, ACLs enforced. Holds passwords: readable by its owner only.",
                "process.roles=broker,controller",
                "node.id=1",
                "listeners=SASL_PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort,
                "advertised.listeners=SASL_PLAINTEXT://127.0.0.1:" + port,
                "listener.security.protocol.map=SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:SASL_PLAINTEXT",
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=SASL_PLAINTEXT",
                "controller.quorum.bootstrap.servers=127.0.0.1:" + controllerPort,
                "sasl.mechanism.inter.broker.protocol=" + KafkaAccess.MECHANISM,
                "sasl.mechanism.controller.protocol=PLAIN",
                // SCRAM for Java clients; PLAIN, checked against the same credentials, for librdkafka before 2.6.1.
                "listener.name.sasl_plaintext.sasl.enabled.mechanisms=" + KafkaAccess.MECHANISM + ",PLAIN",
                "listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                        + " required credentials_file=\"" + dir.resolve(CREDENTIALS).toAbsolutePath() + "\";",
                "listener.name.sasl_plaintext.plain.sasl.server.callback.handler.class="
                        + CredentialsFilePlainCallback.class.getName(),
                "listener.name.sasl_plaintext." + KafkaAccess.MECHANISM.toLowerCase(java.util.Locale.ROOT)
                        + ".sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required"
                        + " username=\"" + KafkaAccess.ADMIN + "\" password=\"" + admin + "\";",
                "listener.name.controller.sasl.enabled.mechanisms=PLAIN",
                "listener.name.controller.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule"
                        + " required username=\"" + CONTROLLER + "\" password=\"" + controller + "\" user_" + CONTROLLER
                        + "=\"" + controller + "\";",
                // StandardAuthorizer's decisions, its refusals also sent to the audit topic as the administrator.
                "authorizer.class.name=" + AuditingAuthorizer.class.getName(),
                AuditingAuthorizer.BOOTSTRAP + "=127.0.0.1:" + port,
                AuditingAuthorizer.CREDENTIALS_FILE + "=" + dir.resolve(CREDENTIALS).toAbsolutePath(),
                AuditingAuthorizer.TOPIC + "=" + TopicCatalog.Names.AUDIT,
                "super.users=User:" + KafkaAccess.ADMIN + ";User:" + CONTROLLER,
                "allow.everyone.if.no.acl.found=false",
                "log.dirs=" + dir.resolve("data"),
                "num.partitions=" + partitions,
                "offsets.topic.replication.factor=1",
                "offsets.topic.num.partitions=3",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "transaction.state.log.num.partitions=3",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // The deciders run 1 s group sessions (TASKGOV_*_SESSION_TIMEOUT), so a dead instance's clusters move
                // within seconds; Kafka's default floor is 6 s.
                "group.min.session.timeout.ms=500",
                "");
    }

    /** Formats the storage (a new cluster id) with the administrator's SCRAM credential, the first one the broker knows. */
    private static void format(Path config, String adminPassword, Path log) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                "kafka.tools.StorageTool", "format", "--standalone", "-t", Uuid.randomUuid().toString(),
                "-c", config.toString(),
                "--add-scram", KafkaAccess.MECHANISM + "=[name=" + KafkaAccess.ADMIN + ",password=" + adminPassword + "]"));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(120, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException("formatting the broker's storage failed; see " + log);
        }
    }
}
