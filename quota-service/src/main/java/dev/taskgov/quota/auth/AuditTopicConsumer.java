package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.AuditEvent;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Stores the audit records every service writes to the audit topic (admission- and topology-service have no
 * database) in quota-service's {@code audit_event} table, once each: quota-service's own are there already.
 *
 * <p>One transaction per poll (at most {@code max.poll.records} records): the records are appended to their chains
 * together ({@link AuditTrail#storeFromTopic(List)}), and the poll's offsets are acknowledged only once that
 * transaction has committed. A crash in between delivers the records again, and their event ids, stored, skip them.
 * A record that cannot be read, or cannot be stored (the batch is then stored one record per transaction, so that
 * only that record is refused), goes to the dead-letter topic with the reason, before the offsets move past it.
 */
@ApplicationScoped
public class AuditTopicConsumer {

    private static final Logger LOG = Logger.getLogger(AuditTopicConsumer.class);

    @Inject
    AuditTrail audit;

    @Incoming("audit")
    @Blocking
    public CompletionStage<Void> store(KafkaRecordBatch<String, String> batch) {
        Map<KafkaRecord<String, String>, Throwable> refused = new IdentityHashMap<>();
        Map<AuditEvent, KafkaRecord<String, String>> readable = new LinkedHashMap<>();
        for (KafkaRecord<String, String> record : batch.getRecords()) {
            if (record.getPayload() == null) continue;
            try {
                readable.put(AuditEvent.fromJson(record.getPayload()), record);
            } catch (RuntimeException e) {
                refused.put(record, e);
            }
        }
        if (!readable.isEmpty()) {
            try {
                int stored = audit.storeFromTopic(List.copyOf(readable.keySet())).size();
                LOG.debugf("audit topic: %d records read, %d stored", batch.getRecords().size(), stored);
            } catch (RuntimeException batchFailed) {
                LOG.warnf("audit topic: a batch of %d records could not be stored together (%s); storing them one by one",
                        readable.size(), batchFailed.toString());
                readable.forEach((event, record) -> {
                    try {
                        audit.storeFromTopic(List.of(event));
                    } catch (RuntimeException e) {
                        refused.put(record, e);
                    }
                });
            }
        }
        // Dead letters first: a refused record's offset is passed only once the broker has its dead letter (the
        // failure strategy acknowledges it then).
        for (Map.Entry<KafkaRecord<String, String>, Throwable> r : refused.entrySet()) {
            r.getKey().nack(r.getValue()).toCompletableFuture().join();
        }
        List<CompletableFuture<Void>> acks = new ArrayList<>();
        for (KafkaRecord<String, String> last : batch.getLatestOffsetRecords().values()) {
            if (!refused.containsKey(last)) acks.add(last.ack().toCompletableFuture());
        }
        return CompletableFuture.allOf(acks.toArray(CompletableFuture[]::new));
    }
}
