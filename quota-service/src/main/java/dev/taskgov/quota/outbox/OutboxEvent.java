package dev.taskgov.quota.outbox;

import java.time.Instant;
import java.util.List;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;

/**
 * A Kafka record waiting to be published, written in the same transaction as the change it announces
 * (table {@code outbox_event}, migration {@code V1__outbox.sql}).
 */
@Entity
@Table(name = "outbox_event")
public class OutboxEvent extends PanacheEntityBase {

    @Id
    @GeneratedValue(strategy = GenerationType.IDENTITY)
    public Long id;

    @Column(nullable = false, length = 249)
    public String topic;

    @Column(name = "record_key", length = 512)
    public String recordKey;

    /** The record value; null for a tombstone. */
    @Column(columnDefinition = "text")
    public String payload;

    /** CloudEvents {@code ce_type} (V2). */
    @Column(name = "event_type", length = 200)
    public String eventType;

    /** CloudEvents {@code ce_id} (V2). */
    @Column(name = "event_id", length = 64)
    public String eventId;

    @Column(name = "created_at", nullable = false)
    public Instant createdAt;

    @Column(name = "published_at")
    public Instant publishedAt;

    /** A new, unpublished record for {@code topic}. Call {@code persist()} inside the business transaction. */
    public static OutboxEvent of(String topic, String recordKey, String payload, Instant createdAt) {
        OutboxEvent event = new OutboxEvent();
        event.topic = topic;
        event.recordKey = recordKey;
        event.payload = payload;
        event.createdAt = createdAt;
        return event;
    }

    /** Records not yet published, oldest first. */
    public static List<OutboxEvent> unpublished(int limit) {
        return find("publishedAt is null order by id").page(0, limit).list();
    }
}
