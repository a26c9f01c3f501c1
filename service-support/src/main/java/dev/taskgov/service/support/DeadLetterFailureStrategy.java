package dev.taskgov.service.support;

import io.smallrye.mutiny.Uni;
import io.smallrye.reactive.messaging.kafka.IncomingKafkaRecord;
import io.smallrye.reactive.messaging.kafka.KafkaConnectorIncomingConfiguration;
import io.smallrye.reactive.messaging.kafka.KafkaConsumer;
import io.smallrye.reactive.messaging.kafka.fault.KafkaFailureHandler;
import io.vertx.mutiny.core.Vertx;
import org.eclipse.microprofile.reactive.messaging.Metadata;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.function.BiConsumer;

/**
 * SmallRye Kafka failure strategy {@value #NAME}: a record whose processing failed goes to the dead-letter
 * topic as a {@link DeadLetter} (the same JSON the transactional deciders write; {@link DeadLetterWriter}), is
 * counted in {@link DeadLetterMetrics}, and is then acknowledged so the channel goes on. A service makes it a bean with
 * {@code @Identifier(DeadLetterFailureStrategy.NAME)} and sets {@code mp.messaging.incoming.<channel>.failure-strategy}.
 * The record is acknowledged only once the broker has the dead letter; if that write fails the failure goes
 * to the channel (nothing is dropped silently).
 */
public abstract class DeadLetterFailureStrategy implements KafkaFailureHandler.Factory, AutoCloseable {

    public static final String NAME = "taskgov-dead-letter";

    private final DeadLetterWriter writer;

    /**
     * @param bootstrapServers the broker the dead letters go to
     * @param source           CloudEvents {@code ce_source} of the dead letters (the service's name)
     */
    protected DeadLetterFailureStrategy(DeadLetterMetrics metrics, String bootstrapServers, String deadLetterTopic,
                                        String source, Clock clock) {
        this.writer = new DeadLetterWriter(metrics, bootstrapServers, deadLetterTopic, source, clock);
    }

    @Override
    public KafkaFailureHandler create(KafkaConnectorIncomingConfiguration config, Vertx vertx,
                                      KafkaConsumer<?, ?> consumer, BiConsumer<Throwable, Boolean> reportFailure) {
        return new KafkaFailureHandler() {
            @Override
            public <K, V> Uni<Void> handle(IncomingKafkaRecord<K, V> record, Throwable failure, Metadata metadata) {
                // Not acknowledged when the dead letter cannot be written: the failure goes to the channel, whose
                // offset stays before this record.
                String key = record.getKey() == null ? null : record.getKey().toString();
                return Uni.createFrom().completionStage(() -> writer.send(record.getTopic(), record.getPartition(),
                                record.getOffset(), key, bytes(record.getPayload()), failure))
                        .emitOn(record::runOnMessageContext)
                        .chain(() -> Uni.createFrom().completionStage(record.ack()));
            }
        };
    }

    private static byte[] bytes(Object payload) {
        if (payload == null) return null;
        if (payload instanceof byte[] b) return b;
        return payload.toString().getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void close() {
        writer.close();
    }
}
