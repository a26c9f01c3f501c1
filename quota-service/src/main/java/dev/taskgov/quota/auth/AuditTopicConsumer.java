package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.AuditEvent;
import io.smallrye.common.annotation.Blocking;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;

/**
 * Stores the audit records every service writes to the audit topic (admission- and topology-service have no
 * database) in quota-service's {@code audit_event} table, once each: quota-service's own are there already.
 */
@ApplicationScoped
public class AuditTopicConsumer {

    @Inject
    AuditTrail audit;

    @Incoming("audit")
    @Blocking
    public void store(String json) {
        if (json != null) {
            audit.storeFromTopic(AuditEvent.fromJson(json));
        }
    }
}
