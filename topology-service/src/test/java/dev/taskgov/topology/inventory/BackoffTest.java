package dev.taskgov.topology.inventory;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class BackoffTest {

    @Test
    void doublesAfterEachFailureUpToTheMaxAndResetsOnSuccess() {
        Backoff backoff = new Backoff(Duration.ofSeconds(1), Duration.ofSeconds(10));

        List<Duration> delays = IntStream.range(0, 6).mapToObj(i -> backoff.failed()).toList();
        backoff.succeeded();

        assertThat(delays).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4),
                Duration.ofSeconds(8), Duration.ofSeconds(10), Duration.ofSeconds(10));
        assertThat(backoff.failed()).isEqualTo(Duration.ofSeconds(1));
    }
}
