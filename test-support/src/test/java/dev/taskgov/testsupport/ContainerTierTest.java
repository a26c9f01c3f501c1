package dev.taskgov.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;

import org.junit.jupiter.api.Test;

/**
 * The container tier is chosen only when nothing would have to be pulled. Runs with or without a
 * Docker engine; the docker step of .ci/run runs it against an engine (DOCKER_HOST), where it shows
 * the fallback for an image the engine does not have, and the choice of an image it has.
 */
class ContainerTierTest {

    private static final String NEVER_BUILT = "taskgov/never-built:0";

    @Test
    void anImageTheEngineDoesNotHaveMeansTheEmbeddedTierWithTheReason() {
        Optional<String> reason = ContainerTier.whyNot(NEVER_BUILT);

        assertThat(reason).isPresent();
        if (!reason.get().startsWith("no Docker engine answers")) {
            assertThat(reason.get()).contains("has no image " + NEVER_BUILT).contains("nothing is pulled");
        } else {
            assertThat(reason.get()).contains("no Docker engine answers");
        }
    }

    @Test
    void withAnEngineThatHasTheImagesTheContainerTierIsChosen() {
        boolean engine = !ContainerTier.whyNot(NEVER_BUILT).orElseThrow().startsWith("no Docker engine answers");
        // .ci/run's docker step sets TASKGOV_TEST_TIER=testcontainers: there the engine and its images must be present.
        if ("testcontainers".equals(System.getenv(ContainerTier.REQUIRED_TIER_ENV))) {
            assertThat(engine).as("a Docker engine answers").isTrue();
            assertThat(ContainerTier.whyNot(ContainerTier.KAFKA_IMAGE)).isEmpty();
            assertThat(ContainerTier.whyNot(ContainerTier.POSTGRES_IMAGE)).isEmpty();
        } else if (!engine) {
            assertThat(ContainerTier.whyNot(ContainerTier.KAFKA_IMAGE)).contains(
                    "no Docker engine answers (DOCKER_HOST, /var/run/docker.sock)");
        }
    }
}
