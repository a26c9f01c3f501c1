package dev.taskgov.testsupport;

import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.NotFoundException;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.dockerclient.DockerClientProviderStrategy;
import org.testcontainers.dockerclient.TransportConfig;
import org.testcontainers.utility.TestcontainersConfiguration;

/**
 * Whether the Testcontainers tier can start a container of an image here, and if not, why.
 *
 * <p>The tier is chosen only when a Docker engine answers and every image it needs is already on
 * that engine: the image itself and the helper images Testcontainers would start first (see
 * {@link #neededImages}). Nothing is pulled: on a machine without a reachable registry a pull
 * retries for minutes, so a missing image means the embedded tier at once, with the reason logged.
 * The images are those {@code deploy/docker/build-images} builds (the same as docker-compose.yml's).
 */
final class ContainerTier {

    static final String KAFKA_IMAGE = envOr("TASKGOV_TEST_KAFKA_IMAGE", "taskgov/kafka:4.1.2");
    static final String POSTGRES_IMAGE = envOr("TASKGOV_TEST_POSTGRES_IMAGE", "taskgov/postgres:15");
    static final String RYUK_DISABLED_ENV = "TESTCONTAINERS_RYUK_DISABLED";
    /** {@code testcontainers}: a run that must prove the container tier fails instead of falling back. */
    static final String REQUIRED_TIER_ENV = "TASKGOV_TEST_TIER";
    static final String HOST_OVERRIDE_ENV = "TESTCONTAINERS_HOST_OVERRIDE";

    private static final System.Logger LOG = System.getLogger(ContainerTier.class.getName());

    private static volatile Optional<DockerClient> engine;

    private ContainerTier() {
    }

    /**
     * Empty when a container of {@code image} can start now without pulling anything; else why not.
     * Logs the reason, so that a test run says which tier it used.
     *
     * @throws IllegalStateException when {@code TASKGOV_TEST_TIER=testcontainers} and the tier cannot run
     */
    static Optional<String> unavailableFor(String image, String purpose) {
        Optional<String> reason = whyNot(image);
        if (reason.isPresent() && "testcontainers".equalsIgnoreCase(System.getenv(REQUIRED_TIER_ENV))) {
            throw new IllegalStateException(REQUIRED_TIER_ENV + "=testcontainers, but the " + purpose
                    + " cannot run in a container: " + reason.get());
        }
        reason.ifPresentOrElse(
                why -> LOG.log(Level.INFO, "test-support: " + purpose + " embedded, not in a container: " + why),
                () -> LOG.log(Level.INFO, "test-support: " + purpose + " in a container of " + image));
        return reason;
    }

    static Optional<String> whyNot(String image) {
        Optional<DockerClient> engine = engine();
        if (engine.isEmpty()) {
            return Optional.of("no Docker engine answers (DOCKER_HOST, /var/run/docker.sock)");
        }
        List<String> absent = neededImages(image).stream()
                .filter(name -> !presentLocally(engine.get(), name))
                .toList();
        if (absent.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("the Docker engine has no image " + String.join(", ", absent)
                + " and nothing is pulled (deploy/docker/build-images builds taskgov's images; Testcontainers'"
                + " own: " + RYUK_DISABLED_ENV + "=true, and " + HOST_OVERRIDE_ENV
                + " when the engine runs on this host)");
    }

    /**
     * The image, and what Testcontainers starts before it: Ryuk (unless disabled) and, when this JVM
     * runs in a container ({@code /.dockerenv}), its small image that finds the host's address
     * (unless {@code TESTCONTAINERS_HOST_OVERRIDE} gives it).
     */
    private static List<String> neededImages(String image) {
        List<String> needed = new ArrayList<>(List.of(image));
        TestcontainersConfiguration configuration = TestcontainersConfiguration.getInstance();
        if (!Boolean.parseBoolean(System.getenv(RYUK_DISABLED_ENV))) {
            needed.add(configuration.getRyukImage());
        }
        String hostOverride = System.getenv(HOST_OVERRIDE_ENV);
        if (Files.exists(Path.of("/.dockerenv")) && (hostOverride == null || hostOverride.isBlank())) {
            needed.add(configuration.getTinyImage());
        }
        return needed;
    }

    /**
     * A client of the engine Testcontainers would use, asked directly: {@link DockerClientFactory#client()}
     * would first start containers of its own (host address, Ryuk) and wait minutes for their pulls.
     */
    private static Optional<DockerClient> engine() {
        if (engine == null) {
            synchronized (ContainerTier.class) {
                if (engine == null) {
                    engine = connect();
                }
            }
        }
        return engine;
    }

    private static Optional<DockerClient> connect() {
        try {
            TransportConfig transport = DockerClientFactory.instance().getTransportConfig();
            DockerClient client = DockerClientProviderStrategy.getClientForConfig(transport);
            client.pingCmd().exec();
            return Optional.of(client);
        } catch (RuntimeException | LinkageError e) {
            return Optional.empty();
        }
    }

    private static boolean presentLocally(DockerClient client, String image) {
        try {
            client.inspectImageCmd(image).exec();
            return true;
        } catch (NotFoundException e) {
            return false;
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value.trim();
    }
}
