package dev.taskgov.service.support;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionalProducerSettingsTest {

    @Test
    void a_tasks_producer_is_idempotent_with_its_transactional_id_and_retries_a_refused_transactional_request_after_2_ms() {
        Properties client = new Properties();
        client.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");

        Properties props = TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-2");

        Properties expected = new Properties();
        expected.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        expected.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "taskgov-admission-2");
        expected.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        expected.put(ProducerConfig.ACKS_CONFIG, "all");
        expected.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 2);
        assertThat(props).isEqualTo(expected);
    }

    @Test
    void the_client_settings_may_choose_another_retry_backoff_but_not_another_transactional_id_or_acks() {
        Properties client = new Properties();
        client.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "50");
        client.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "someone-else");
        client.put(ProducerConfig.ACKS_CONFIG, "1");

        Properties props = TransactionalLoop.transactionalProducerProps(client, "taskgov-preemption-0");

        assertThat(props).containsEntry(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "50")
                .containsEntry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "taskgov-preemption-0")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
        assertThat(client).containsEntry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "someone-else");
    }
}
