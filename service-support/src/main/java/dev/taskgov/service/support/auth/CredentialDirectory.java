package dev.taskgov.service.support.auth;

import dev.taskgov.core.auth.AccessKey;
import dev.taskgov.core.auth.SecretBox;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.TopicFollower;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The access keys as admission- and topology-service know them: read from the compacted credentials topic that
 * quota-service (which owns the keys, in its database) writes, from the beginning and then as it changes; a
 * tombstone revokes. No service calls another over HTTP for this, and the topic carries no usable secret: each is
 * encrypted with the master key, which the topic's readers hold and Kafka does not (docs/security.md).
 */
public final class CredentialDirectory implements CredentialLookup, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(CredentialDirectory.class);

    private final Map<String, AccessKey> keys = new ConcurrentHashMap<>();
    private final String topic;
    private final SecretBox box;
    /** Next offset to read per partition, kept across sessions: a new session goes on where the last one stood. */
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    private final TopicFollower<String> follower;

    public CredentialDirectory(Properties clientProps, String topic, SecretBox box) {
        this.topic = topic;
        this.box = box;
        this.follower = new TopicFollower<>("credentials-" + topic,
                () -> CompactedTopicReader.groupless(clientProps, new StringDeserializer()), this::follow, () -> { });
    }

    public CredentialDirectory start() {
        follower.start();
        return this;
    }

    @Override
    public Optional<Found> find(String accessKeyId) {
        AccessKey k = keys.get(accessKeyId);
        if (k == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(new Found(k.toPrincipal(), box.decrypt(k.accessKeyId(), k.principal(), k.roles(), k.secretCiphertext())));
        } catch (IllegalStateException e) {
            // A record whose principal or roles differ from those its secret was sealed to: refused, not trusted.
            LOG.warnf("access key %s refused: %s", accessKeyId, e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * Reads the topic for as long as the directory is open, from where the last session stood (from the beginning at
     * the first). A failed session is retried by the follower: a reader that gave up would leave the service refusing
     * new keys and accepting revoked ones until it restarts.
     */
    private void follow(KafkaConsumer<String, String> consumer, TopicFollower.Follow follow) {
        List<TopicPartition> partitions = List.of();
        while (follow.running()) {
            if (partitions.isEmpty()) {
                partitions = partitions(consumer);
                if (partitions.isEmpty()) {
                    LOG.infof("credentials topic %s does not exist yet; waiting for quota-service to create it", topic);
                    follow.pause(Duration.ofSeconds(2));
                    continue;
                }
                consumer.assign(partitions);
                for (TopicPartition tp : partitions) {
                    Long next = positions.get(tp);
                    if (next == null) consumer.seekToBeginning(List.of(tp));
                    else consumer.seek(tp, next);
                }
            }
            ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
            for (ConsumerRecord<String, String> r : records) apply(r);
            for (TopicPartition tp : records.partitions()) positions.put(tp, consumer.position(tp));
            follow.progressed();
        }
    }

    /** Reads of the topic that failed and were tried again since the directory started. */
    public long failedReads() {
        return follower.failedSessions();
    }

    private List<TopicPartition> partitions(KafkaConsumer<String, String> consumer) {
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
        follower.close();
    }
}
