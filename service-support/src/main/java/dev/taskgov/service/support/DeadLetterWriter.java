package dev.taskgov.service.support;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Writes refused input records to the dead-letter topic outside a transaction (the deciders write theirs in their
 * transaction, {@link Outbox#deadLetter}): a {@link dev.taskgov.core.events.DeadLetter} with the reason, counted in
 * {@link DeadLetterMetrics} once the broker has it, or counted as a write failure (and logged) when the broker
 * refuses it; the caller then must not pass the record by. Used by the SmallRye failure strategy
 * ({@link DeadLetterFailureStrategy}) and by plain consumer loops.
 */
public final class DeadLetterWriter implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(DeadLetterWriter.class);

    private final DeadLetterMetrics metrics;
    private final Map<String, Object> producerConfig;
    private final String deadLetterTopic;
    private final String source;
    private final Clock clock;
    private Producer<String, byte[]> producer;

    /**
     * @param bootstrapServers the broker the dead letters go to
     * @param source           CloudEvents {@code ce_source} of the dead letters (the service's name)
     */
    public DeadLetterWriter(DeadLetterMetrics metrics, String bootstrapServers, String deadLetterTopic, String source,
                            Clock clock) {
        this.metrics = metrics;
        this.deadLetterTopic = deadLetterTopic;
        this.source = source;
        this.clock = clock;
        Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        KafkaClientSecurity.properties().forEach((k, v) -> config.put((String) k, v));
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        config.put(ProducerConfig.CLIENT_ID_CONFIG, source + "-deadletter");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        this.producerConfig = Map.copyOf(config);
    }

    /**
     * Sends the dead letter of the record at {@code topic-partition@offset}; completes once the broker has it (and
     * it is counted), or exceptionally when the broker refuses it (counted as a write failure).
     */
    public CompletableFuture<Void> send(String topic, int partition, long offset, String key, byte[] value,
                                        Throwable failure) {
        String reason = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        ProducerRecord<String, byte[]> out = Outbox.deadLetterRecord(deadLetterTopic, source, topic, partition, offset,
                key, value, reason, clock.instant());
        DeadLetterMetrics.Reason category = DeadLetterMetrics.Reason.of(failure);
        LOG.warnf("%s-%d@%d refused to %s (%s): %s", topic, partition, offset, deadLetterTopic, category.label(), reason);
        CompletableFuture<Void> sent = new CompletableFuture<>();
        try {
            producer().send(out, (md, e) -> {
                if (e != null) refused(topic, partition, offset, e, sent);
                else {
                    metrics.count(topic, category);
                    sent.complete(null);
                }
            });
        } catch (RuntimeException e) {
            // send throws itself for what it can tell at once (an invalid topic name, metadata not found in time).
            refused(topic, partition, offset, e, sent);
        }
        return sent;
    }

    private void refused(String topic, int partition, long offset, Exception e, CompletableFuture<Void> sent) {
        LOG.errorf("cannot write the dead letter of %s-%d@%d to %s (%s); the record is not acknowledged",
                topic, partition, offset, deadLetterTopic, e.toString());
        metrics.writeFailed(topic);
        sent.completeExceptionally(e);
    }

    private synchronized Producer<String, byte[]> producer() {
        if (producer == null) producer = new KafkaProducer<>(producerConfig);
        return producer;
    }

    @Override
    public synchronized void close() {
        if (producer != null) producer.close();
        producer = null;
    }
}
