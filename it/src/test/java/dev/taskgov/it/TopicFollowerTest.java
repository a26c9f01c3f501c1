package dev.taskgov.it;

import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.TopicFollower;
import dev.taskgov.testsupport.KafkaTopics;
import dev.taskgov.testsupport.SharedKafka;
import dev.taskgov.testsupport.TopicSpec;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The follower every group-less view of the services runs on (admission's read replica, topology-service's holds,
 * the access keys), against the real broker: a session that fails is undone and followed by another, which reads;
 * closing ends it, also while it pauses after failures.
 */
class TopicFollowerTest {

    @Test
    void aFailedSessionIsUndoneAndFollowedByOneThatReads() throws Exception {
        String topic = topic();
        write(topic, "a");
        AtomicInteger sessions = new AtomicInteger();
        AtomicInteger undone = new AtomicInteger();
        List<String> read = new CopyOnWriteArrayList<>();
        TopicFollower<byte[]> follower = new TopicFollower<>("test-follower", this::consumer, (c, follow) -> {
            if (sessions.incrementAndGet() <= 2) throw new IllegalStateException("session " + sessions.get() + " fails");
            TopicPartition tp = new TopicPartition(topic, 0);
            c.assign(List.of(tp));
            c.seekToBeginning(List.of(tp));
            while (follow.running()) {
                for (ConsumerRecord<String, byte[]> r : c.poll(Duration.ofMillis(200))) {
                    read.add(new String(r.value(), StandardCharsets.UTF_8));
                }
                follow.progressed();
            }
        }, undone::incrementAndGet).start();
        try {
            await("the third session reads").atMost(Duration.ofMinutes(1)).until(() -> read.contains("a"));
            write(topic, "b");
            await("and goes on reading").atMost(Duration.ofMinutes(1)).until(() -> read.contains("b"));
            assertThat(follower.failedSessions()).isEqualTo(2);
            assertThat(undone.get()).isEqualTo(2);
            assertThat(sessions.get()).isEqualTo(3);
            assertThat(read).containsExactly("a", "b");
        } finally {
            follower.close();
        }
        assertThat(follower.alive()).as("closed while polling").isFalse();
    }

    @Test
    void closingEndsAFollowerWhoseSessionsKeepFailing() {
        TopicFollower<byte[]> follower = new TopicFollower<>("failing-follower", this::consumer, (c, follow) -> {
            throw new IllegalStateException("never reads");
        }, () -> { }).start();
        await("two failed sessions, the second pause begun").atMost(Duration.ofMinutes(1))
                .until(() -> follower.failedSessions() >= 2);
        follower.close();
        assertThat(follower.alive()).as("closed while pausing").isFalse();
    }

    private KafkaConsumer<String, byte[]> consumer() {
        Properties props = new Properties();
        props.putAll(SharedKafka.adminClientProperties());
        return CompactedTopicReader.groupless(props);
    }

    private static String topic() {
        String topic = "follower-" + UUID.randomUUID();
        KafkaTopics.create(SharedKafka.adminClientProperties(), List.of(TopicSpec.deleting(topic, 1)));
        return topic;
    }

    private static void write(String topic, String value) throws Exception {
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(SharedKafka.adminClientProperties(),
                new StringSerializer(), new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>(topic, "k", value.getBytes(StandardCharsets.UTF_8))).get(1, TimeUnit.MINUTES);
        }
    }
}
