package dev.taskgov.quota.auth;

import io.quarkus.hibernate.orm.panache.PanacheEntityBase;
import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;

import java.time.Instant;

/**
 * One audit record (table {@code audit_event}, migrations V16, V20); the shape of core's AuditEvent and its place in
 * its service's hash chain (core's AuditChain).
 */
@Entity
@Table(name = "audit_event")
public class AuditEventEntity extends PanacheEntityBase {

    @Id
    @Column(name = "event_id")
    public String eventId;

    @Column(nullable = false)
    public Instant at;

    @Column(nullable = false)
    public String service;

    @Column(nullable = false)
    public String principal;

    @Column(nullable = false)
    public String operation;

    @Column(columnDefinition = "text")
    public String target;

    @Column(nullable = false, columnDefinition = "text")
    public String outcome;

    @Column(name = "before_json", columnDefinition = "text")
    public String beforeJson;

    @Column(name = "after_json", columnDefinition = "text")
    public String afterJson;

    /** The chain this record belongs to (its service); null for a record written before the chain existed. */
    public String chain;

    public Long seq;

    @Column(name = "prev_hash")
    public String prevHash;

    public String hash;
}
