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

    /** Revokes a key as quota-service does on the credentials topic: a tombstone under its id. */
    public static void tombstoneOnTopic(TestCredentials.Key key) {
        Properties p = new Properties();
        p.putAll(SharedKafka.adminClientProperties());
        p.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(p, new StringSerializer(), new StringSerializer())) {
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
