package dev.taskgov.admission;

import dev.taskgov.service.support.CompactedTopicReader;
import dev.taskgov.service.support.DeciderTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;

/**
 * A read-only copy of admission's state on every instance, so that reads behind a load balancer are answered
 * by whichever replica gets them, decider or not: it follows the decider's committed changelog and the quota and
 * topology topics (read_committed, no consumer group) into an {@link AdmissionProcessor} in replica mode, which
 * never decides. It answers once it has read those topics to their end; from then on it trails the decider by
 * its uncommitted batch and the poll interval.
 */
public final class AdmissionReplica implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AdmissionReplica.class);

    private final Properties clientProps;
    private final DeciderTopics topics;
    private final Duration pollTimeout;
    private final AdmissionProcessor view;
    private volatile boolean running = true;
    private volatile KafkaConsumer<String, byte[]> consumer;
    private Thread thread;

    public AdmissionReplica(Properties clientProps, DeciderTopics topics, Duration pollTimeout, Clock clock) {
        this.clientProps = clientProps;
        this.topics = topics;
        this.pollTimeout = pollTimeout;
        this.view = new AdmissionProcessor(topics, clock, AdmissionObserver.NONE);
    }

    public synchronized void start() {
        thread = new Thread(this::run, "admission-replica");
        thread.setDaemon(true);
        thread.start();
    }

    /** The replica's state once it has caught up; empty before (or while it starts over after a failure). */
    public Optional<AdmissionProcessor> reads() {
        return view.isReady() ? Optional.of(view) : Optional.empty();
    }

    private void run() {
        for (int attempt = 1; running; attempt++) {
            try {
                follow();
            } catch (WakeupException | InterruptException e) {
                if (running) LOG.warn("replica interrupted; starting over", e);
            } catch (KafkaException e) {
                LOG.warnf("replica lost its topics (attempt %d): %s; starting over", attempt, e.getMessage());
                view.unfollow();
                pause(Math.min(30_000, 1_000L * attempt));
            } finally {
                consumer = null;
            }
        }
    }

    private void follow() {
        try (KafkaConsumer<String, byte[]> c = CompactedTopicReader.groupless(clientProps)) {
            consumer = c;
            List<TopicPartition> parts = new ArrayList<>();
            for (String topic : List.of(topics.changelog(), topics.quota(), topics.topology())) {
                List<PartitionInfo> infos = c.partitionsFor(topic, Duration.ofSeconds(30));
                if (infos == null || infos.isEmpty()) throw new KafkaException("topic " + topic + " does not exist yet");
                infos.forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
            }
            view.unfollow();
            c.assign(parts);
            c.seekToBeginning(parts);
            Map<TopicPartition, Long> end = c.endOffsets(parts, Duration.ofSeconds(30));
            boolean caughtUp = false;
            while (running) {
                for (ConsumerRecord<String, byte[]> r : c.poll(pollTimeout)) view.follow(r);
                if (!caughtUp && parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp))) {
                    caughtUp = true;
                    view.followedToEnd();
                    LOG.infof("read replica caught up with %s", parts);
                }
            }
        }
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            running = false;
        }
    }

    @Override
    public synchronized void close() {
        running = false;
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) c.wakeup();
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
