package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.AuditEvent;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import java.util.Properties;
import java.util.function.Consumer;

/**
 * Sends audit records to the audit topic (key = event id), where quota-service stores them in PostgreSQL. A
 * record that cannot be sent is logged in full, so the log keeps what the topic lost.
 */
public final class AuditProducer implements Consumer<AuditEvent>, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AuditProducer.class);

    /** {@code ce_type} of an audit record (the same as quota-service's outbox writes). */
    public static final String TYPE = AuditRecords.TYPE;

    private final KafkaProducer<String, String> producer;
    private final String topic;
    private final String service;

    public AuditProducer(Properties clientProps, String topic, String service) {
        Properties p = new Properties();
        p.putAll(clientProps);
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        this.producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
        this.topic = topic;
        this.service = service;
    }

    @Override
    public void accept(AuditEvent event) {
        ProducerRecord<String, String> record = AuditRecords.record(topic, service, event);
        producer.send(record, (meta, failure) -> {
            if (failure != null) {
                LOG.errorf("audit record not sent to %s (%s): %s", topic, failure.getMessage(), record.value());
            }
        });
    }

    @Override
    public void close() {
        producer.close();
    }
}
