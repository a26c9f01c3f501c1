package dev.taskgov.cli;

import picocli.CommandLine.Option;

import java.net.URI;

/**
 * Where the services are: flags, else the environment (a system property {@code taskgov.admission.url},
 * {@code taskgov.quota.url}, {@code taskgov.kafka.bootstrap}, then the variable), else the local runtime's defaults.
 */
final class Endpoints {

    @Option(names = "--admission-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.admission.url:-${env:TASKGOV_ADMISSION_URL:-http://127.0.0.1:8083}}",
            description = "admission-service base URL (env TASKGOV_ADMISSION_URL; default ${DEFAULT-VALUE}).")
    String admissionUrl;

    @Option(names = "--quota-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.quota.url:-${env:TASKGOV_QUOTA_URL:-http://127.0.0.1:8081}}",
            description = "quota-service (SageMaker API) URL (env TASKGOV_QUOTA_URL; default ${DEFAULT-VALUE}).")
    String quotaUrl;

    @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT",
            defaultValue = "${sys:taskgov.kafka.bootstrap:-${env:TASKGOV_KAFKA_BOOTSTRAP:-127.0.0.1:9092}}",
            description = "Kafka bootstrap servers (env TASKGOV_KAFKA_BOOTSTRAP; default ${DEFAULT-VALUE}).")
    String kafkaBootstrap;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            defaultValue = "${sys:taskgov.kafka.config:-${env:TASKGOV_KAFKA_CONFIG:-}}",
            description = "Kafka client settings file with the SASL login (security.protocol, sasl.mechanism,"
                    + " sasl.jaas.config) (env TASKGOV_KAFKA_CONFIG; default: the local runtime's administrator,"
                    + " $TASKGOV_HOME/kafka/clients/taskgov-admin.properties, when it exists).")
    String kafkaConfig;

    @Option(names = "--kafka-retry", paramLabel = "DURATION",
            defaultValue = "${env:TASKGOV_KAFKA_RETRY:-2m}",
            description = "How long a write to Kafka is retried while the broker is away, e.g. restarting (env TASKGOV_KAFKA_RETRY; "
                    + "0 = no retry; default ${DEFAULT-VALUE}).")
    String kafkaRetry;

    /** A writer to the Kafka topics, retrying for {@code --kafka-retry} and saying so on {@code err}. */
    KafkaWriter kafkaWriter(java.time.Clock clock, java.io.PrintWriter err) {
        java.time.Duration retryFor;
        try {
            retryFor = DemoCommand.parseDuration(kafkaRetry);
        } catch (CliException e) {
            throw CliException.invalid("--kafka-retry: '" + kafkaRetry + "' is not a duration such as 0, 90s, 2m");
        }
        return new KafkaWriter(kafkaClient(), clock, retryFor, err);
    }

    /**
     * The Kafka client settings: the login of {@code --kafka-config} (else the local runtime's administrator's,
     * when that file exists) with {@code --kafka-bootstrap}'s address.
     */
    java.util.Properties kafkaClient() {
        java.util.Properties p = new java.util.Properties();
        java.nio.file.Path file = kafkaConfigFile();
        if (file != null) {
            try (java.io.Reader in = java.nio.file.Files.newBufferedReader(file)) {
                p.load(in);
            } catch (java.io.IOException e) {
                throw CliException.invalid("--kafka-config: cannot read '" + file + "': " + e.getMessage());
            }
        }
        p.put("bootstrap.servers", kafkaBootstrap);
        return p;
    }

    private java.nio.file.Path kafkaConfigFile() {
        if (kafkaConfig != null && !kafkaConfig.isBlank()) return java.nio.file.Path.of(kafkaConfig.trim());
        String home = System.getenv("TASKGOV_HOME");
        java.nio.file.Path local = java.nio.file.Path.of(home == null || home.isBlank() ? ".taskgov" : home.trim(),
                "kafka", "clients", dev.taskgov.core.events.KafkaAccess.ADMIN + ".properties");
        return java.nio.file.Files.isRegularFile(local) ? local : null;
    }

    AdmissionClient admission() {
        return new AdmissionClient(admissionBase());
    }

    URI admissionBase() {
        return uri("--admission-url", admissionUrl);
    }

    URI quota() {
        return uri("--quota-url", quotaUrl);
    }

    static URI uri(String flag, String value) {
        try {
            URI uri = URI.create(value.endsWith("/") ? value.substring(0, value.length() - 1) : value);
            if (uri.getScheme() == null || uri.getHost() == null) {
                throw CliException.invalid(flag + " must be an http(s) URL such as http://127.0.0.1:8083, was '" + value + "'");
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw CliException.invalid(flag + " is not a URL: '" + value + "'");
        }
    }
}
