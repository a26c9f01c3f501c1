package dev.taskgov.quota.outbox;

import dev.taskgov.core.events.CloudEvents;
import dev.taskgov.service.support.CloudEventHeaders;
import dev.taskgov.quota.config.QuotaServiceConfig;
import io.quarkus.narayana.jta.QuarkusTransaction;
import io.quarkus.runtime.ShutdownEvent;
import io.quarkus.scheduler.Scheduled;
import io.smallrye.reactive.messaging.kafka.Record;
import io.smallrye.reactive.messaging.kafka.api.OutgoingKafkaRecordMetadata;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.event.TransactionPhase;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.eclipse.microprofile.reactive.messaging.Channel;
import org.eclipse.microprofile.reactive.messaging.Emitter;
import org.eclipse.microprofile.reactive.messaging.Message;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Relays outbox rows to Kafka in id order and stamps {@code published_at} only after the broker
 * acknowledged them (idempotent producer, {@code acks=all}; see application.properties). Runs right
 * after every commit that wrote a row, and on a timer for rows left by a crash or a failed send.
 * Rows of one key are sent in order on one producer, so the compacted topic ends with the latest.
 * A PostgreSQL advisory lock keeps a second instance from relaying the same rows at the same time.
 */
@ApplicationScoped
public class OutboxPublisher {

    private static final Logger LOG = Logger.getLogger(OutboxPublisher.class);
    private static final long RELAY_LOCK = 0x7461736b676f76L; // "taskgov"

    @Inject
    @Channel("quota-state")
    Emitter<Record<String, String>> emitter;

    @Inject
    QuotaServiceConfig config;

    @Inject
    EntityManager entityManager;

    @Inject
    Clock clock;

    private final ExecutorService relay = Executors.newSingleThreadExecutor(r -> new Thread(r, "outbox-relay"));
    private final AtomicBoolean relayQueued = new AtomicBoolean();
    private final AtomicBoolean suspended = new AtomicBoolean();

    void afterCommit(@Observes(during = TransactionPhase.AFTER_SUCCESS) QuotaTopicOutbox.OutboxWritten written) {
        requestRelay();
    }

    @Scheduled(every = "${taskgov.quota.outbox.poll-interval}", concurrentExecution = Scheduled.ConcurrentExecution.SKIP,
            skipExecutionIf = Scheduled.ApplicationNotRunning.class)
    void poll() {
        requestRelay();
    }

    void onStop(@Observes ShutdownEvent stop) {
        relay.shutdown();
    }

    /** Asks for a relay run on the relay thread; runs queued while one is pending collapse into one. */
    public void requestRelay() {
        if (!suspended.get() && relayQueued.compareAndSet(false, true)) {
            relay.execute(() -> {
                relayQueued.set(false);
                try {
                    relayPending();
                } catch (RuntimeException e) {
                    LOG.warnf(e, "outbox relay failed; the rows stay pending and are retried");
                }
            });
        }
    }

    /**
     * Stops relaying: rows are still written and committed, and wait in the outbox (as if the
     * service died right after a commit). For maintenance of the broker and for crash tests.
     */
    public synchronized void suspend() {
        // synchronized with relayPending: once this returns, no relay is running and none starts
        suspended.set(true);
    }

    /** Relays again, starting with every row left pending. */
    public void resume() {
        suspended.set(false);
        requestRelay();
    }

    /**
     * Sends every pending row, batch by batch, and returns how many were acknowledged. Stops at the
     * first row the broker did not acknowledge (it and the rows after it stay pending).
     */
    public synchronized int relayPending() {
        int total = 0;
        while (!suspended.get()) {
            int[] batch = QuarkusTransaction.requiringNew()
                    .timeout((int) config.quota().outbox().sendTimeout().toSeconds() + 30)
                    .call(this::relayBatch);
            total += batch[0];
            if (batch[0] < batch[1] || batch[1] < config.quota().outbox().batchSize()) {
                return total;
            }
        }
        return total;
    }

    /** @return {acknowledged, read} */
    private int[] relayBatch() {
        Number locked = (Number) entityManager
                .createNativeQuery("select count(*) from (select pg_try_advisory_xact_lock(?1) as ok) l where l.ok")
                .setParameter(1, RELAY_LOCK).getSingleResult();
        if (locked.intValue() == 0) {
            return new int[] {0, 0};
        }
        List<OutboxEvent> rows = OutboxEvent.unpublished(config.quota().outbox().batchSize());
        List<CompletableFuture<Void>> acks = new ArrayList<>(rows.size());
        for (OutboxEvent row : rows) {
            acks.add(send(row));
        }
        long deadline = System.nanoTime() + config.quota().outbox().sendTimeout().toNanos();
        int acknowledged = 0;
        for (int i = 0; i < rows.size(); i++) {
            try {
                acks.get(i).get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (Exception e) {
                LOG.warnf("outbox row %d (key %s) was not acknowledged: %s", rows.get(i).id, rows.get(i).recordKey,
                        e.getMessage());
                break;
            }
            rows.get(i).publishedAt = clock.instant();
            acknowledged++;
        }
        return new int[] {acknowledged, rows.size()};
    }

    private CompletableFuture<Void> send(OutboxEvent row) {
        CompletableFuture<Void> acked = new CompletableFuture<>();
        RecordHeaders headers = new RecordHeaders();
        CloudEvents.write(CloudEventHeaders.setter(headers), row.eventType, config.quota().eventSource(),
                row.eventId != null ? row.eventId : "outbox-" + row.id, row.createdAt, null, row.payload != null);
        Message<Record<String, String>> message = Message.of(Record.of(row.recordKey, row.payload))
                .addMetadata(OutgoingKafkaRecordMetadata.<String>builder()
                        .withTopic(row.topic).withKey(row.recordKey).withHeaders(headers).build())
                .withAck(() -> {
                    acked.complete(null);
                    return CompletableFuture.completedFuture(null);
                })
                .withNack(failure -> {
                    acked.completeExceptionally(failure);
                    return CompletableFuture.completedFuture(null);
                });
        try {
            emitter.send(message);
        } catch (RuntimeException e) {
            acked.completeExceptionally(e);
        }
        return acked;
    }

}
