package dev.taskgov.topology.capacity;

import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.DeadLetterWriter;
import dev.taskgov.service.support.TopicFollower;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.kafka.KafkaClientMetrics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * Follows the workload topics on one thread of its own with a plain Kafka consumer and applies each poll's records
 * to the holds as one batch. Like the deciders' loops and unlike a SmallRye channel, a record costs a parse and a
 * map update, not a trip through reactive operators and context propagation (which took most of this service's CPU
 * during a burst).
 *
 * <p>The consumer is group-less and read_committed ({@link CompactedTopicReader#groupless}): only committed
 * admissions, preemptions and finishes happened, so only those may hold capacity. Every start reads the topics from
 * the beginning (the holds are rebuilt, nothing is committed); topics matching {@code moreTopics} (each team's
 * submission topic) are looked for every few seconds and read from their beginning when they appear.
 *
 * <p>A record the reader refuses (or whose change throws) goes to the dead-letter topic. When the broker refuses the
 * dead letter, the partition is rewound to that record and tried again after a pause: it is never passed by
 * silently. The records after it in that partition were already applied and are applied again, which changes
 * nothing ({@link WorkloadHolds} takes an event twice as once).
 *
 * <p>It also tells the holds when they may forget: after the records that recorded release markers were applied, it
 * takes the end offsets of every partition it reads (at most every {@link #SEAL_INTERVAL}) and seals those markers
 * with them; once its positions have passed a sealed snapshot, every admission made before those markers has been
 * read, and they are forgotten ({@link WorkloadHolds}).
 */
final class WorkloadEventsLoop implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(WorkloadEventsLoop.class);
    private static final Duration POLL = Duration.ofMillis(500);
    private static final Duration TOPIC_TIMEOUT = Duration.ofSeconds(30);
    /** How often topics matching the pattern are looked for: a new team's submissions count within seconds. */
    private static final Duration DISCOVERY_INTERVAL = Duration.ofSeconds(5);
    private static final Duration RETRY_PAUSE = Duration.ofSeconds(1);
    /**
     * How often at most the end offsets are asked for to seal the release markers recorded since (one broker round
     * trip, not one per poll): markers live this long at least, so the holds keep about rate x interval of them.
     */
    private static final Duration SEAL_INTERVAL = Duration.ofMillis(250);

    private final Properties clientProps;
    private final List<String> topics;
    private final Pattern moreTopics;
    private final Function<ConsumerRecord<String, byte[]>, Consumer<WorkloadHolds>> reader;
    private final CapacityView view;
    private final DeadLetterWriter deadLetters;
    private final MeterRegistry registry;
    private final TopicFollower<byte[]> follower;
    /** Next offset to read per partition, kept across sessions so that a new session goes on where the last stopped. */
    private final Map<TopicPartition, Long> positions = new HashMap<>();
    /**
     * Sealed generations of release markers with the end offsets taken after they were recorded, oldest first; a
     * generation is forgotten once the consumer's positions have passed its offsets ({@link WorkloadHolds}).
     */
    private final ArrayDeque<Sealed> sealed = new ArrayDeque<>();
    private long nextSeal;
    private volatile boolean caughtUp;
    private volatile String stuck;

    /**
     * @param topics     the topics to follow, which need not exist yet
     * @param moreTopics topics matching it are followed too, also those created later
     * @param reader     a record's change of the holds; throws (an {@link IllegalArgumentException} naming the field
     *                   and the rule) to refuse it; null for a record that changes nothing
     */
    WorkloadEventsLoop(Properties clientProps, List<String> topics, Pattern moreTopics,
                       Function<ConsumerRecord<String, byte[]>, Consumer<WorkloadHolds>> reader, CapacityView view,
                       DeadLetterWriter deadLetters, MeterRegistry registry) {
        this.clientProps = clientProps;
        this.topics = List.copyOf(topics);
        this.moreTopics = moreTopics;
        this.reader = reader;
        this.view = view;
        this.deadLetters = deadLetters;
        this.registry = registry;
        Properties props = new Properties();
        props.putAll(clientProps);
        props.put(ConsumerConfig.CLIENT_ID_CONFIG, "topology-service-workload-events");
        this.follower = new TopicFollower<>("workload-events", () -> CompactedTopicReader.groupless(props), this::follow,
                () -> { });
    }

    WorkloadEventsLoop start() {
        follower.start();
        return this;
    }

    /** Whether it has read every topic to its end as of its start: the holds then show every committed admission. */
    boolean caughtUp() {
        return caughtUp;
    }

    /** Why it cannot go on (a dead letter the broker refuses), or null. */
    String stuck() {
        return stuck;
    }

    /** Whether its thread runs (it ends only when closed). */
    boolean alive() {
        return follower.alive();
    }

    /** A new session goes on where the last one stopped ({@link #positions}). */
    private void follow(KafkaConsumer<String, byte[]> c, TopicFollower.Follow follow) {
        try (KafkaClientMetrics metrics = new KafkaClientMetrics(c)) {
            metrics.bindTo(registry);
            Set<TopicPartition> assigned = new HashSet<>();
            discover(c, assigned);
            Map<TopicPartition, Long> end = caughtUp ? Map.of() : c.endOffsets(assigned, TOPIC_TIMEOUT);
            long nextDiscovery = System.nanoTime() + DISCOVERY_INTERVAL.toNanos();
            while (follow.running()) {
                if (System.nanoTime() > nextDiscovery) {
                    discover(c, assigned);
                    nextDiscovery = System.nanoTime() + DISCOVERY_INTERVAL.toNanos();
                }
                ConsumerRecords<String, byte[]> records = c.poll(POLL);
                follow.progressed();
                if (!records.isEmpty() && !apply(c, records)) follow.pause(RETRY_PAUSE);
                forgetPassedMarkers(c);
                if (System.nanoTime() - nextSeal >= 0) sealMarkers(c, assigned);
                if (!caughtUp && end.entrySet().stream().allMatch(e -> c.position(e.getKey()) >= e.getValue())) {
                    caughtUp = true;
                    LOG.infof("read the workload topics to their end (%d partitions)", assigned.size());
                }
            }
        }
    }

    /** Assigns the partitions of the topics (and of those matching the pattern) that are not assigned yet. */
    private void discover(KafkaConsumer<String, byte[]> c, Set<TopicPartition> assigned) {
        List<PartitionInfo> found = new ArrayList<>();
        for (String topic : topics) {
            List<PartitionInfo> infos = c.partitionsFor(topic, TOPIC_TIMEOUT);
            if (infos != null) found.addAll(infos);
        }
        c.listTopics(TOPIC_TIMEOUT).forEach((topic, infos) -> {
            if (moreTopics.matcher(topic).matches() && !topics.contains(topic)) found.addAll(infos);
        });
        List<TopicPartition> added = found.stream().map(i -> new TopicPartition(i.topic(), i.partition()))
                .filter(assigned::add).toList();
        if (added.isEmpty()) return;
        c.assign(assigned);
        for (TopicPartition tp : added) {
            Long next = positions.get(tp);
            if (next == null) c.seekToBeginning(List.of(tp));
            else c.seek(tp, next);
        }
    }

    /**
     * Applies one poll's records to the holds in one step, then writes the dead letters of the refused ones.
     *
     * @return false when a dead letter could not be written (its partition was rewound to it)
     */
    private boolean apply(KafkaConsumer<String, byte[]> c, ConsumerRecords<String, byte[]> records) {
        List<ConsumerRecord<String, byte[]>> read = new ArrayList<>(records.count());
        List<Consumer<WorkloadHolds>> changes = new ArrayList<>(records.count());
        List<Refused> refused = new ArrayList<>();
        // Parsed outside the holds' lock, so that GET /topology waits only for the map updates.
        for (ConsumerRecord<String, byte[]> r : records) {
            try {
                Consumer<WorkloadHolds> change = reader.apply(r);
                if (change == null) continue;
                read.add(r);
                changes.add(change);
            } catch (RuntimeException e) {
                refused.add(new Refused(r, e));
            }
        }
        if (!changes.isEmpty()) {
            view.holds().update(holds -> {
                for (int i = 0; i < changes.size(); i++) {
                    try {
                        changes.get(i).accept(holds);
                    } catch (RuntimeException e) {
                        refused.add(new Refused(read.get(i), e));
                    }
                }
            });
            view.holdsChanged();
        }
        boolean allWritten = true;
        Set<TopicPartition> rewound = new HashSet<>();
        refused.sort(Comparator.comparing((Refused f) -> f.record().topic()).thenComparingInt(f -> f.record().partition())
                .thenComparingLong(f -> f.record().offset()));
        for (Refused f : refused) {
            ConsumerRecord<String, byte[]> r = f.record();
            TopicPartition tp = new TopicPartition(r.topic(), r.partition());
            if (rewound.contains(tp)) continue;
            try {
                deadLetters.send(r.topic(), r.partition(), r.offset(), r.key(), r.value(), f.failure()).join();
            } catch (CompletionException e) {
                // Counted and logged by the writer; the record comes again after the pause.
                c.seek(tp, r.offset());
                rewound.add(tp);
                allWritten = false;
            }
        }
        stuck = allWritten ? null : "cannot write dead letters to the dead-letter topic; retrying " + rewound;
        for (TopicPartition tp : records.partitions()) positions.put(tp, c.position(tp));
        return allWritten;
    }

    private record Refused(ConsumerRecord<String, byte[]> record, RuntimeException failure) {
    }

    private record Sealed(long generation, Map<TopicPartition, Long> endOffsets) {
    }

    /**
     * Takes the end offsets (read_committed: the last stable offset, so every committed record before a marker lies
     * below) of every partition read, after the markers of the open generation were recorded, and seals it.
     */
    private void sealMarkers(KafkaConsumer<String, byte[]> c, Set<TopicPartition> assigned) {
        nextSeal = System.nanoTime() + SEAL_INTERVAL.toNanos();
        if (!view.holds().hasOpenMarkers()) return;
        // Taken before sealing: this thread alone records markers, so none is recorded in between.
        Map<TopicPartition, Long> end = c.endOffsets(assigned, TOPIC_TIMEOUT);
        long generation = view.holds().sealMarkers();
        if (generation > 0) sealed.addLast(new Sealed(generation, Map.copyOf(end)));
    }

    /** Forgets the sealed generations whose end offsets the consumer has read past, oldest first. */
    private void forgetPassedMarkers(KafkaConsumer<String, byte[]> c) {
        long through = 0;
        while (!sealed.isEmpty() && passed(c, sealed.peekFirst().endOffsets())) through = sealed.pollFirst().generation();
        if (through > 0) {
            long generation = through;
            view.holds().update(holds -> holds.forgetMarkersThrough(generation));
        }
    }

    private static boolean passed(KafkaConsumer<String, byte[]> c, Map<TopicPartition, Long> endOffsets) {
        Set<TopicPartition> assignment = c.assignment();
        for (Map.Entry<TopicPartition, Long> e : endOffsets.entrySet()) {
            // Every partition in a snapshot stays assigned (partitions are only added); a new session assigns them again.
            if (!assignment.contains(e.getKey()) || c.position(e.getKey()) < e.getValue()) return false;
        }
        return true;
    }

    @Override
    public void close() {
        follower.close();
    }
}
