package dev.taskgov.cli;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.core.events.EventCodec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Clock;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Writes taskgov events straight to their topics, with CloudEvents binary-mode headers. */
final class KafkaWriter implements AutoCloseable {

    static final String SUBMITTED_TOPIC = "taskgov.workload.submitted";
    static final String FINISHED_TOPIC = "taskgov.workload.finished";
    private static final String SOURCE = CloudEvents.source("cli");

    private final String bootstrap;
    private final KafkaProducer<String, String> producer;
    private final Clock clock;

    KafkaWriter(String bootstrap, Clock clock) {
        this.bootstrap = bootstrap;
        this.clock = clock;
        Properties p = new Properties();
        p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, "10000");
        p.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, "5000");
        p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, "15000");
        p.put(ProducerConfig.CLIENT_ID_CONFIG, "taskgov-cli");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
    }

    /** Sends one event keyed by {@code key} and waits for the broker's acknowledgement. */
    void send(String topic, String key, Object event, String ceType) {
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.write(headers::add, ceType, SOURCE, UUID.randomUUID().toString(), clock.instant(), key, true);
        try {
            producer.send(new ProducerRecord<>(topic, null, key, EventCodec.write(event), headers)).get(20, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException | org.apache.kafka.common.KafkaException e) {
            Throwable cause = e instanceof ExecutionException && e.getCause() != null ? e.getCause() : e;
            throw new CliException(CliException.FAILED, "cannot write to Kafka topic " + topic + " at " + bootstrap
                    + " (" + cause.getMessage() + "); is the broker up, or set --kafka-bootstrap / TASKGOV_KAFKA_BOOTSTRAP", cause);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }

    @Override
    public void close() {
        producer.close(java.time.Duration.ofSeconds(5));
    }
}
