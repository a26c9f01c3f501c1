package dev.taskgov.testsupport;

import dev.taskgov.core.events.TopicCatalog;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;

import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How long a revoked access key is still accepted: the time from the start of a revocation to the first request
 * the service refuses, measured by sending signed requests back to back.
 */
public final class RevocationLatency {

    private RevocationLatency() {
    }

    private static KafkaProducer<String, String> producer;

    /** Connects the revoking producer (login, metadata), outside the time measured. */
    public static synchronized void connect() {
        if (producer == null) {
            Properties p = new Properties();
            p.putAll(SharedKafka.adminClientProperties());
            p.put(ProducerConfig.ACKS_CONFIG, "all");
            producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer());
            producer.partitionsFor(TopicCatalog.CREDENTIALS.defaultName());
        }
    }

    /**
     * Revokes a key as quota-service does on the credentials topic: a tombstone under its id, sent by a producer
     * that is already connected, as quota-service's outbox is (a new producer's login and metadata would be
     * counted otherwise).
     */
    public static synchronized void tombstoneOnTopic(TestCredentials.Key key) {
        connect();
        try {
            producer.send(new ProducerRecord<>(TopicCatalog.CREDENTIALS.defaultName(), key.accessKeyId(), null)).get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("could not revoke test key " + key.accessKeyId() + " on the credentials topic", e);
        }
    }

    /**
     * The time from just before {@code revoke} runs to the first request {@code refused} reports as refused,
     * trying again without pause; fails past {@code max}.
     */
    public static Duration measure(Runnable revoke, BooleanSupplier refused, Duration max) {
        long start = System.nanoTime();
        revoke.run();
        while (!refused.getAsBoolean()) {
            if (System.nanoTime() - start > max.toNanos()) {
                throw new AssertionError("a revoked key was still accepted " + max.toMillis() + " ms after its revocation");
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }
}
