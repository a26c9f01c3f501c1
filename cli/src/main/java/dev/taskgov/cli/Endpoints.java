package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import picocli.CommandLine.Option;

import java.net.URI;

/**
 * Where the services are: flags, else the environment (a system property {@code taskgov.admission.url},
 * {@code taskgov.quota.url}, {@code taskgov.topology.url}, {@code taskgov.kafka.bootstrap}, then the variable), else the
 * local runtime's ports (the variables {@code taskgov-local} starts it on, {@code TASKGOV_ADMISSION_PORT} ..., so a
 * second platform's variables serve its CLI too; {@code TASKGOV_KAFKA_BOOTSTRAP} tells {@code taskgov-local} to use an
 * existing broker rather than start its own, so the CLI must not need it for the local one); and the key every HTTP
 * request is signed with (the profile file).
 */
public final class Endpoints {

    @Option(names = "--admission-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.admission.url:-${env:TASKGOV_ADMISSION_URL:-http://127.0.0.1:${env:TASKGOV_ADMISSION_PORT:-8083}}}",
            description = "admission-service base URL (env TASKGOV_ADMISSION_URL, else on 127.0.0.1 at TASKGOV_ADMISSION_PORT; default ${DEFAULT-VALUE}).")
    String admissionUrl;

    @Option(names = "--quota-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.quota.url:-${env:TASKGOV_QUOTA_URL:-http://127.0.0.1:${env:TASKGOV_QUOTA_PORT:-8081}}}",
            description = "quota-service (SageMaker API) URL (env TASKGOV_QUOTA_URL, else on 127.0.0.1 at TASKGOV_QUOTA_PORT; default ${DEFAULT-VALUE}).")
    String quotaUrl;

    @Option(names = "--topology-url", paramLabel = "URL",
            defaultValue = "${sys:taskgov.topology.url:-${env:TASKGOV_TOPOLOGY_URL:-http://127.0.0.1:${env:TASKGOV_TOPOLOGY_PORT:-8082}}}",
            description = "topology-service base URL (env TASKGOV_TOPOLOGY_URL, else on 127.0.0.1 at TASKGOV_TOPOLOGY_PORT; default ${DEFAULT-VALUE}).")
    String topologyUrl;

    @Option(names = "--kafka-bootstrap", paramLabel = "HOST:PORT",
            defaultValue = "${sys:taskgov.kafka.bootstrap:-${env:TASKGOV_KAFKA_BOOTSTRAP:-127.0.0.1:${env:TASKGOV_KAFKA_PORT:-9092}}}",
            description = "Kafka bootstrap servers (env TASKGOV_KAFKA_BOOTSTRAP, else on 127.0.0.1 at TASKGOV_KAFKA_PORT; default ${DEFAULT-VALUE}).")
    String kafkaBootstrap;

    @Option(names = "--kafka-config", paramLabel = "FILE",
            defaultValue = "${sys:taskgov.kafka.config:-${env:TASKGOV_KAFKA_CONFIG:-}}",
            description = "Kafka client settings file with the SASL login (security.protocol, sasl.mechanism,"
                    + " sasl.jaas.config) (env TASKGOV_KAFKA_CONFIG; default: the local runtime's login of the profile's principal,"
                    + " $TASKGOV_HOME/kafka/clients/taskgov-admin.properties for the admin profile, team.NAME.properties for"
                    + " profile NAME; never the administrator's for another profile).")
    String kafkaConfig;

    @Option(names = "--credentials-profile", paramLabel = "NAME",
            defaultValue = "${sys:taskgov.profile.name:-${env:TASKGOV_PROFILE_NAME:-admin}}",
            description = "Which key of the profile file signs the requests (env TASKGOV_PROFILE_NAME; default ${DEFAULT-VALUE}).")
    String profile;

    @Option(names = "--profile-file", paramLabel = "PATH",
            defaultValue = "${sys:taskgov.profile.file:-${env:TASKGOV_PROFILE:-${env:TASKGOV_HOME:-.taskgov}/credentials}}",
            description = "The credentials profile file, in ~/.aws/credentials format (env TASKGOV_PROFILE; default "
                    + "${DEFAULT-VALUE}, which the local runtime writes).")
    String profileFile;

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
    public java.util.Properties kafkaClient() {
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

    /** The profile the local runtime writes for its administrator's key. */
    static final String ADMIN_PROFILE = "admin";

    /**
     * The Kafka login: {@code --kafka-config} when given; else the local runtime's login of the profile's own
     * principal ({@code taskgov-admin} for the {@code admin} profile, {@code team.<name>} for profile {@code <name>}).
     * A profile other than the administrator's never gets the administrator's login: the CLI acts as the profile it
     * is given, and the administrator's login would let a team key write what its team may not. Null when the
     * runtime keeps no logins at all (a broker without SASL).
     */
    private java.nio.file.Path kafkaConfigFile() {
        if (kafkaLoginGiven()) return java.nio.file.Path.of(kafkaConfig.trim());
        String home = System.getProperty("taskgov.home", System.getenv("TASKGOV_HOME"));
        java.nio.file.Path clients = java.nio.file.Path.of(home == null || home.isBlank() ? ".taskgov" : home.trim(), "kafka", "clients");
        java.nio.file.Path admin = clients.resolve(dev.taskgov.core.events.KafkaAccess.ADMIN + ".properties");
        if (administratorProfile()) return java.nio.file.Files.isRegularFile(admin) ? admin : null;
        // a profile named after no possible team has no team login
        java.nio.file.Path own = dev.taskgov.core.events.KafkaAccess.TEAM_NAME.matcher(profile).matches()
                ? clients.resolve(dev.taskgov.core.events.KafkaAccess.teamPrincipal(profile) + ".properties") : null;
        if (own != null && java.nio.file.Files.isRegularFile(own)) return own;
        if (java.nio.file.Files.isRegularFile(admin)) {
            throw CliException.invalid("--credentials-profile " + profile + ": the profile has no Kafka login of its own ("
                    + (own == null ? "it names no team" : "no " + own + "; taskgov-local kafka-team " + profile + " makes a team's")
                    + "), and the CLI never writes to Kafka with the"
                    + " administrator's login for another profile: give --kafka-config FILE, or leave out --kafka to go through"
                    + " admission-service with the profile's key");
        }
        return null;
    }

    /** Whether a Kafka login was named ({@code --kafka-config}, {@code TASKGOV_KAFKA_CONFIG}). */
    boolean kafkaLoginGiven() {
        return kafkaConfig != null && !kafkaConfig.isBlank();
    }

    /** Whether the CLI signs with the administrator's profile. */
    boolean administratorProfile() {
        return ADMIN_PROFILE.equals(profile);
    }

    /**
     * Whether a finish is written to the finished topic with the Kafka login: when one was named (the broker then
     * decides; a team's is refused there), or with the administrator's profile. Any other profile finishes through
     * admission-service with its own key, which allows a team its own workloads only: no team writes the finished
     * topic, whose records may name any team's workload.
     */
    boolean finishesThroughKafka() {
        return kafkaLoginGiven() || administratorProfile();
    }

    public AdmissionClient admission() {
        return new AdmissionClient(admissionHttp());
    }

    /** admission-service's API (and its metrics), signed like every request. */
    SignedHttp admissionHttp() {
        return new SignedHttp(uri("--admission-url", admissionUrl), "admission-service", credentials(),
                "--admission-url / TASKGOV_ADMISSION_URL");
    }

    /** topology-service's API, signed like every request. */
    SignedHttp topologyHttp() {
        return new SignedHttp(uri("--topology-url", topologyUrl), "topology-service", credentials(),
                "--topology-url / TASKGOV_TOPOLOGY_URL");
    }

    /** The key requests are signed with: the selected profile of the profile file. */
    ProfileFile.Credentials credentials() {
        try {
            return ProfileFile.read(java.nio.file.Path.of(profileFile), profile);
        } catch (IllegalArgumentException e) {
            throw CliException.invalid(e.getMessage());
        } catch (java.io.UncheckedIOException e) {
            throw CliException.failed(e.getMessage());
        }
    }

    java.nio.file.Path profileFile() {
        return java.nio.file.Path.of(profileFile);
    }

    /** taskgov's own endpoints on quota-service (credentials, audit), signed like the rest. */
    SignedHttp quotaHttp() {
        return new SignedHttp(quota(), "quota-service", credentials(), "--quota-url / TASKGOV_QUOTA_URL");
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
