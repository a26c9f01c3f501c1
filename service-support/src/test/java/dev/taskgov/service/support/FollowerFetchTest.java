package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FollowerFetchTest {

    private static Properties client() {
        Properties p = new Properties();
        p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092");
        return p;
    }

    @Test
    void aWaitBatchesTheFetchesOfACopyOfTheClientSettings() {
        Properties client = client();
        Properties batched = FollowerFetch.batched(client, Duration.ofMillis(50), "x.fetch-wait");
        assertThat(batched).containsAllEntriesOf(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, "localhost:9092",
                ConsumerConfig.FETCH_MIN_BYTES_CONFIG, FollowerFetch.MIN_BYTES, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50));
        assertThat(client).as("the caller's settings are left as they were").isEqualTo(client());
    }

    @Test
    void zeroKeepsKafkasDefaults() {
        assertThat(FollowerFetch.batched(client(), Duration.ZERO, "x.fetch-wait")).isEqualTo(client());
    }

    @Test
    void aWaitOutOfRangeIsRefusedNamingThePropertyAndTheRange() {
        assertThatThrownBy(() -> FollowerFetch.batched(client(), Duration.ofSeconds(2), "taskgov.topology.workload-events-fetch-wait"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("taskgov.topology.workload-events-fetch-wait: the fetch wait must be from 0 to 1000 ms, not 2000 ms");
        assertThatThrownBy(() -> FollowerFetch.batched(client(), Duration.ofMillis(-1), "x.fetch-wait"))
                .hasMessage("x.fetch-wait: the fetch wait must be from 0 to 1000 ms, not -1 ms");
    }
}
