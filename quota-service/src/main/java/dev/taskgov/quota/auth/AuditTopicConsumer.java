package dev.taskgov.quota.auth;

import dev.taskgov.core.auth.AuditEvent;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.reactive.messaging.kafka.KafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaRecordBatch;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.reactive.messaging.Incoming;
import org.jboss.logging.Logger;

import java.sql.SQLException;
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
 * A record that cannot be read, or that is refused when stored (the batch is then stored one record per transaction,
 * so that only that record is refused), goes to the dead-letter topic with the reason, before the offsets move past it.
 * A failure that is not the records' own (the database unreachable, the service stopping) dead-letters nothing: the
 * poll is left unacknowledged, the committed offsets stay before it, and its records are delivered again when the
 * service restarts (the channel reports itself unhealthy meanwhile).
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
                if (!theRecordsFault(batchFailed)) return leftForRedelivery(batch, batchFailed);
                LOG.warnf("audit topic: a batch of %d records could not be stored together (%s); storing them one by one",
                        readable.size(), batchFailed.toString());
                for (Map.Entry<AuditEvent, KafkaRecord<String, String>> r : readable.entrySet()) {
                    try {
                        audit.storeFromTopic(List.of(r.getKey()));
                    } catch (RuntimeException e) {
                        if (!theRecordsFault(e)) return leftForRedelivery(batch, e);
                        refused.put(r.getValue(), e);
                    }
                }
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

    /**
     * Whether storing failed because of the records themselves: a rule of the audit record
     * ({@link IllegalArgumentException}) or the table's (PostgreSQL's data and constraint errors, SQL states 22 and
     * 23). Anything else, such as a lost connection or a closed persistence unit at shutdown, is not the records'
     * fault and must not cost them a dead letter.
     */
    static boolean theRecordsFault(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException) return true;
            if (t instanceof SQLException sql) {
                for (SQLException s = sql; s != null; s = s.getNextException()) {
                    String state = s.getSQLState();
                    if (state != null && (state.startsWith("22") || state.startsWith("23"))) return true;
                }
            }
        }
        return false;
    }

    private static CompletionStage<Void> leftForRedelivery(KafkaRecordBatch<String, String> batch, RuntimeException e) {
        LOG.warnf("audit topic: %d records not stored (%s); left unacknowledged, they are delivered again after a restart",
                batch.getRecords().size(), e.toString());
        return CompletableFuture.completedFuture(null);
    }
}
