package dev.taskgov.service.support;

import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

import java.util.Properties;

import static org.assertj.core.api.Assertions.assertThat;

class TransactionalProducerSettingsTest {

    @Test
    void aTasksProducerIsIdempotentWithItsTransactionalIdRetriesARefusedTransactionalRequestAfter2MsAndSendsInLargeBatches() {
        Properties client = new Properties();
        client.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");

        Properties props = TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-2");

        Properties expected = new Properties();
        expected.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
        expected.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "taskgov-admission-2");
        expected.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        expected.put(ProducerConfig.ACKS_CONFIG, "all");
        expected.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, 2);
        expected.put(ProducerConfig.LINGER_MS_CONFIG, 100);
        expected.put(ProducerConfig.BATCH_SIZE_CONFIG, 262_144);
        assertThat(props).isEqualTo(expected);
    }

    @Test
    void theClientSettingsMayChooseAnotherRetryBackoffLingerOrBatchSizeButNotAnotherTransactionalIdOrAcks() {
        Properties client = new Properties();
        client.put(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "50");
        client.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        client.put(ProducerConfig.BATCH_SIZE_CONFIG, "16384");
        client.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "someone-else");
        client.put(ProducerConfig.ACKS_CONFIG, "1");

        Properties props = TransactionalLoop.transactionalProducerProps(client, "taskgov-preemption-0");

        assertThat(props).containsEntry(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, "50")
                .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "0").containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "16384")
                .containsEntry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "taskgov-preemption-0")
                .containsEntry(ProducerConfig.ACKS_CONFIG, "all");
        assertThat(client).containsEntry(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "someone-else");
    }

    @Test
    void aTopicThatAcceptsLessThanTheBatchSizeLowersItAndOneThatAcceptsMoreLeavesIt() {
        Properties client = new Properties();
        assertThat(TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-0", 100_000))
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 100_000);
        assertThat(TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-0", 1_048_588))
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 262_144);

        client.put(ProducerConfig.BATCH_SIZE_CONFIG, "16384");
        assertThat(TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-0", 100_000))
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "16384");
        assertThat(TransactionalLoop.transactionalProducerProps(client, "taskgov-admission-0", 10_000))
                .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, 10_000);
    }
}
