package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.service.support.CompactedTopicReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The access keys as admission- and topology-service know them: read from the compacted credentials topic that
 * quota-service (which owns the keys, in its database) writes, from the beginning and then as it changes; a
 * tombstone revokes. No service calls another over HTTP for this, and the topic carries no usable secret: each is
 * encrypted with the master key, which the topic's readers hold and Kafka does not (docs/security.md).
 */
public final class CredentialDirectory implements CredentialLookup, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CredentialDirectory.class);

    private final Map<String, AccessKey> keys = new ConcurrentHashMap<>();
    private final KafkaConsumer<String, String> consumer;
    private final String topic;
    private final SecretBox box;
    private final Thread thread;
    private volatile boolean running = true;
    /** Opened by {@link #close}: ends a pause after a failed read at once. */
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicLong failedReads = new AtomicLong();

    public CredentialDirectory(Properties clientProps, String topic, SecretBox box) {
        this.consumer = CompactedTopicReader.groupless(clientProps, new StringDeserializer());
        this.topic = topic;
        this.box = box;
        this.thread = new Thread(this::run, "credentials-" + topic);
        this.thread.setDaemon(true);
    }

    public CredentialDirectory start() {
        thread.start();
        return this;
    }

    @Override
    public Optional<Found> find(String accessKeyId) {
        AccessKey k = keys.get(accessKeyId);
        if (k == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Found(k.toPrincipal(), box.decrypt(k.accessKeyId(), k.secretCiphertext())));
        } catch (IllegalStateException e) {
            LOG.warnf("access key %s: %s", accessKeyId, e.getMessage());
            return Optional.empty();
        }
    }

    /** The first pause after a failed read, doubled after each failure in a row up to {@link #MAX_RETRY_PAUSE}. */
    static final Duration FIRST_RETRY_PAUSE = Duration.ofSeconds(1);
    static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(30);

    /**
     * Reads the topic for as long as the directory is open. A failure (the broker unreachable or too slow at start,
     * a metadata timeout) is logged and retried after a pause from where the reader stood: a reader that gave up
     * would leave the service refusing new keys and accepting revoked ones until it restarts.
     */
    private void run() {
        Duration pause = FIRST_RETRY_PAUSE;
        try {
            List<TopicPartition> partitions = List.of();
            while (running) {
                try {
                    if (partitions.isEmpty()) {
                        partitions = partitions();
                        if (partitions.isEmpty()) {
                            LOG.infof("credentials topic %s does not exist yet; waiting for quota-service to create it", topic);
                            consumer.poll(Duration.ofSeconds(2)); // no assignment: just waits, interruptible by wakeup
                            continue;
                        }
                        consumer.assign(partitions);
                        consumer.seekToBeginning(partitions);
                    }
                    for (ConsumerRecord<String, String> r : consumer.poll(Duration.ofMillis(200))) {
                        apply(r);
                    }
                    pause = FIRST_RETRY_PAUSE;
                } catch (WakeupException e) {
                    throw e;
                } catch (RuntimeException e) {
                    if (!running) break;
                    failedReads.incrementAndGet();
                    LOG.warnf("reading the credentials topic %s failed (%s); trying again in %d s", topic, e, pause.toSeconds());
                    if (closing.await(pause.toMillis(), TimeUnit.MILLISECONDS)) break;
                    pause = pause.multipliedBy(2).compareTo(MAX_RETRY_PAUSE) > 0 ? MAX_RETRY_PAUSE : pause.multipliedBy(2);
                }
            }
        } catch (WakeupException e) {
            // closing
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            consumer.close();
        }
    }

    /** Reads of the topic that failed and were tried again since the directory started. */
    public long failedReads() {
        return failedReads.get();
    }

    private List<TopicPartition> partitions() {
        List<PartitionInfo> infos = consumer.partitionsFor(topic, Duration.ofSeconds(10));
        return infos == null ? List.of() : infos.stream().map(i -> new TopicPartition(i.topic(), i.partition())).toList();
    }

    private void apply(ConsumerRecord<String, String> r) {
        if (r.key() == null) {
            return;
        }
        if (r.value() == null) {
            keys.remove(r.key());
            return;
        }
        try {
            AccessKey k = AccessKey.fromJson(r.value());
            if (!k.accessKeyId().equals(r.key())) {
                LOG.warnf("credentials record at offset %d: key %s names access key %s; ignored", r.offset(), r.key(), k.accessKeyId());
                return;
            }
            keys.put(k.accessKeyId(), k);
        } catch (IllegalArgumentException e) {
            LOG.warnf("credentials record at offset %d (key %s) is not an access key: %s; ignored", r.offset(), r.key(),
                    e.getMessage());
        }
    }

    @Override
    public void close() {
        running = false;
        closing.countDown();
        consumer.wakeup();
        try {
            thread.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
