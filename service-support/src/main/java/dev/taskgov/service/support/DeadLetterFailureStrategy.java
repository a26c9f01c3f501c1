package dev.taskgov.service.support;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.fault.KafkaFailureHandler;
import io.vertx.mutiny.core.Vertx;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.reactive.messaging.Metadata;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * SmallRye Kafka failure strategy {@value #NAME}: a record whose processing failed goes to the dead-letter
 * topic as a {@link DeadLetter} (the same JSON the transactional deciders write), is counted in
 * {@link DeadLetterMetrics}, and is then acknowledged so the channel goes on. A service makes it a bean with
 * {@code @Identifier(DeadLetterFailureStrategy.NAME)} and sets {@code mp.messaging.incoming.<channel>.failure-strategy}.
 * The record is acknowledged only once the broker has the dead letter; if that write fails the failure goes
 * to the channel (nothing is dropped silently).
 */
public abstract class DeadLetterFailureStrategy implements KafkaFailureHandler.Factory, AutoCloseable {

    public static final String NAME = "taskgov-dead-letter";

    private static final Logger LOG = Logger.getLogger(DeadLetterFailureStrategy.class);

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
    protected DeadLetterFailureStrategy(DeadLetterMetrics metrics, String bootstrapServers, String deadLetterTopic,
                                        String source, Clock clock) {
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

    @Override
    public KafkaFailureHandler create(KafkaConnectorIncomingConfiguration config, Vertx vertx,
                                      KafkaConsumer<?, ?> consumer, BiConsumer<Throwable, Boolean> reportFailure) {
        return new KafkaFailureHandler() {
            @Override
            public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record, Throwable failure, Metadata metadata) {
                return send(record, failure).emitOn(record::runOnMessageContext)
                        .chain(() -> Uni.createFrom().completionStage(record.ack()));
            }
        };
    }

    private <K, V> Uni<Void> send(IncomingKafkaRecord<K, V> record, Throwable failure) {
        String reason = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        String key = record.getKey() == null ? null : record.getKey().toString();
        ProducerRecord<String, byte[]> out = Outbox.deadLetterRecord(deadLetterTopic, source, record.getTopic(),
                record.getPartition(), record.getOffset(), key, bytes(record.getPayload()), reason, clock.instant());
        DeadLetterMetrics.Reason category = DeadLetterMetrics.Reason.of(failure);
        LOG.warnf("%s-%d@%d refused to %s (%s): %s", record.getTopic(), record.getPartition(), record.getOffset(),
                deadLetterTopic, category.label(), reason);
        CompletableFuture<Void> sent = new CompletableFuture<>();
        producer().send(out, (md, e) -> {
            if (e != null) {
                // Not acknowledged: the failure goes to the channel, whose offset stays before this record.
                LOG.errorf("cannot write the dead letter of %s-%d@%d to %s (%s); the record is not acknowledged",
                        record.getTopic(), record.getPartition(), record.getOffset(), deadLetterTopic, e.toString());
                metrics.writeFailed(record.getTopic());
                sent.completeExceptionally(e);
            } else {
                metrics.count(record.getTopic(), category);
                sent.complete(null);
            }
        });
        return Uni.createFrom().completionStage(sent);
    }

    private synchronized Producer<String, byte[]> producer() {
        if (producer == null) producer = new KafkaProducer<>(producerConfig);
        return producer;
    }

    private static byte[] bytes(Object payload) {
        if (payload == null) return null;
        if (payload instanceof byte[] b) return b;
        return payload.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        if (producer != null) producer.close();
        producer = null;
    }
}
