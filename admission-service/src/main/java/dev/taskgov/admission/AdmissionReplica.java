package dev.taskgov.admission;

import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.TopicFollower;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.BooleanSupplier;

/**
 * A read-only copy of admission's state on every instance, so that reads behind a load balancer are answered
 * by whichever replica gets them, decider or not: it follows the decider's committed changelog and the quota and
 * topology topics (read_committed, no consumer group) into the {@link AdmissionReads} of an {@link AdmissionProcessor}
 * in replica mode, which never decides. It answers once it has read those topics to their end; from then on it trails the decider by
 * its uncommitted batch and the poll interval.
 *
 * <p>While this instance's own decider answers every read ({@link #standsDownWhile}), the replica holds nothing and
 * fetches nothing: following the whole changelog then costs its thread and the broker's fetches for no reader. When
 * the decider stops answering (it lost its partition), the replica reads its topics from the beginning again, and
 * this instance answers reads once it has caught up.
 */
public final class AdmissionReplica implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(AdmissionReplica.class);

    private final DeciderTopics topics;
    private final Duration pollTimeout;
    /** The replica-mode processor whose reads are the view; it never decides. */
    private final AdmissionProcessor processor;
    private final AdmissionReads view;
    private final TopicFollower<byte[]> follower;
    private BooleanSupplier standDown = () -> false;

    public AdmissionReplica(Properties clientProps, DeciderTopics topics, Duration pollTimeout, Clock clock) {
        this.topics = topics;
        this.pollTimeout = pollTimeout;
        this.processor = AdmissionProcessor.replica(topics, clock);
        this.view = processor.reads();
        // A failed session leaves a view that no longer follows: unanswered until the next one has caught up.
        this.follower = new TopicFollower<>("admission-replica", () -> CompactedTopicReader.groupless(clientProps),
                this::follow, view::unfollow);
    }

    /**
     * Gang admission's setting of each cluster, as the deciders have it: the view's schedulers then keep a workload
     * that backs off out of its queue, as the decider does. Before {@link #start}.
     */
    public AdmissionReplica waitForPodsReady(WaitForPodsReadyByCluster setting) {
        processor.waitForPodsReady(setting);
        return this;
    }

    /**
     * While {@code deciderAnswersEveryRead} holds, the replica drops its view and stops fetching; it is asked after
     * every poll, and every poll timeout while standing down. Before {@link #start}.
     */
    public AdmissionReplica standsDownWhile(BooleanSupplier deciderAnswersEveryRead) {
        this.standDown = deciderAnswersEveryRead;
        return this;
    }

    public void start() {
        follower.start();
    }

    /** The replica's state once it has caught up; empty before (or while it starts over after a failure). */
    public Optional<AdmissionReads> reads() {
        return view.isReady() ? Optional.of(view) : Optional.empty();
    }

    /** Every session reads the topics from their beginning into a view started afresh. */
    private void follow(KafkaConsumer<String, byte[]> c, TopicFollower.Follow follow) {
        // A consumer connects to the broker on its first request, so one that waits here costs nothing.
        while (standDown.getAsBoolean()) {
            if (!follow.pause(pollTimeout)) return;
        }
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
        while (follow.running()) {
            if (standDown.getAsBoolean()) {
                view.unfollow();
                LOG.infof("read replica stands down: this instance's decider answers every read");
                return; // the next session waits for the decider to stop answering, then reads from the beginning
            }
            for (ConsumerRecord<String, byte[]> r : c.poll(pollTimeout)) view.follow(r);
            follow.progressed();
            if (!caughtUp && parts.stream().allMatch(tp -> c.position(tp) >= end.get(tp))) {
                caughtUp = true;
                view.followedToEnd();
                LOG.infof("read replica caught up with %s", parts);
            }
        }
    }

    @Override
    public void close() {
        follower.close();
    }
}
