package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.AuditEvent;
import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.service.support.CloudEventHeaders;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The Kafka record of an audit event on the audit topic: key = event id, the event's JSON, CloudEvents headers.
 * Used by the services' {@link AuditProducer} and by the broker's own authorizer (deploy/local), which has only
 * kafka-clients, core and this package's plain classes on its classpath: so no logging framework here.
 */
public final class AuditRecords {

    /** {@code ce_type} of an audit record (the same as quota-service's outbox writes). */
    public static final String TYPE = "dev.taskgov.audit.recorded";

    private AuditRecords() {
    }

    /** The record of {@code event} sent by {@code component} (its CloudEvents source) to {@code topic}. */
    public static ProducerRecord<String, String> record(String topic, String component, AuditEvent event) {
        ProducerRecord<String, String> record = new ProducerRecord<>(topic, event.eventId(), event.toJson());
        CloudEventHeaders.write(record.headers(), TYPE, CloudEvents.source(component), event.eventId(), event.at(),
                event.target());
        return record;
    }
}
