package dev.taskgov.testsupport;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;

/**
 * How far a live test's deciders (transactional loops on the real broker) have got: whether they have processed
 * every record of their inputs, and whether what they wrote can be read. The live test harnesses wait on
 * {@link QuietCheck} before they read the deciders' outputs.
 *
 * <p>Every step works around one fact: a decider's {@code commitTransaction()} returns, and it counts the
 * transaction's input as processed, before the transaction coordinator has written the commit markers on the
 * partitions the transaction wrote. Until a partition has its marker, its last stable offset (the end a
 * read_committed reader reaches) stays before the transaction's records: a record the decider forwarded to its
 * cluster's partition, a dead letter, an admission. Hence:
 * <ol>
 *   <li>the processed offsets are read before the end offsets: a transaction committing between the two reads then
 *       shows as work still to do, where the other order could count its input as processed while the ends miss
 *       what it wrote (a forwarded copy, which is input again);</li>
 *   <li>the input ends are high watermarks (open transactions included), not last stable offsets: a read_committed
 *       consumer's position, which the processed offsets are, reaches the high watermark only once every
 *       transaction there is complete, so a forwarded copy whose marker is still to come keeps the check false;</li>
 *   <li>the outputs are read last, last stable offset before high watermark, and must be equal: no transaction is
 *       open on them, so the markers of every transaction the processed offsets counted have been written and a
 *       read_committed reader started now sees all its records (CI once read two of six dead letters in
 *       PreemptionDeciderTest because the test read the outputs right after the inputs were processed).</li>
 * </ol>
 *
 * <p>Offsets are per partition ({@link TopicPartition}); the deciders' processed offsets are keyed by
 * {@code topic-partition}, which is {@link TopicPartition#toString()}.
 */
public final class DeciderProgress implements AutoCloseable {

    private static final long TIMEOUT_SECONDS = 30;

    private final Admin admin;

    /** @param client the administrator's client settings (e.g. {@link SharedKafka#adminClientProperties()}) */
    public DeciderProgress(Properties client) {
        admin = Admin.create(client);
    }

    /**
     * The end offset of every partition of the topics: the last stable offset ({@link IsolationLevel#READ_COMMITTED},
     * where a read_committed reader stops) or the high watermark ({@link IsolationLevel#READ_UNCOMMITTED}, open
     * transactions and markers included).
     */
    public synchronized Map<TopicPartition, Long> endOffsets(Collection<String> topics, IsolationLevel isolation) {
        try {
            Map<TopicPartition, OffsetSpec> request = new HashMap<>();
            admin.describeTopics(topics).allTopicNames().get(TIMEOUT_SECONDS, TimeUnit.SECONDS).forEach((name, d) ->
                    d.partitions().forEach(p -> request.put(new TopicPartition(name, p.partition()), OffsetSpec.latest())));
            Map<TopicPartition, Long> out = new HashMap<>();
            admin.listOffsets(request, new ListOffsetsOptions(isolation)).all().get(TIMEOUT_SECONDS, TimeUnit.SECONDS)
                    .forEach((tp, info) -> out.put(tp, info.offset()));
            return out;
        } catch (Exception e) {
            throw new IllegalStateException("cannot read the " + isolation + " end offsets of " + topics, e);
        }
    }

    /** {@link #endOffsets(Collection, IsolationLevel)} of one topic. */
    public Map<TopicPartition, Long> endOffsets(String topic, IsolationLevel isolation) {
        return endOffsets(List.of(topic), isolation);
    }

    /**
     * The input ends (high watermarks) if {@code processedOffsets} has reached them on every partition of
     * {@code inputs}, else null. The processed offsets are asked for first (steps 1 and 2 of the class comment).
     *
     * @param processedOffsets next offset to process per {@code topic-partition} (a decider's processedOffsets, or
     *                         several deciders' {@link #furthest merged})
     */
    public Map<TopicPartition, Long> inputEndsIfAllProcessed(Supplier<Map<String, Long>> processedOffsets,
                                                            Collection<String> inputs) {
        Map<String, Long> processed = processedOffsets.get();
        Map<TopicPartition, Long> ends = endOffsets(inputs, IsolationLevel.READ_UNCOMMITTED);
        for (Map.Entry<TopicPartition, Long> e : ends.entrySet()) {
            if (processed.getOrDefault(e.getKey().toString(), -1L) < e.getValue()) return null;
        }
        return ends;
    }

    /**
     * Whether no transaction is open on any partition of the topics: each last stable offset equals the high
     * watermark. The last stable offsets are read first: both only grow and never pass each other, so equal values
     * read in that order mean that nothing was open when the last stable offsets were read (read the other way
     * round, a transaction begun between the two reads could pass unseen).
     */
    public boolean noTransactionOpen(Collection<String> topics) {
        Map<TopicPartition, Long> lastStable = endOffsets(topics, IsolationLevel.READ_COMMITTED);
        return lastStable.equals(endOffsets(topics, IsolationLevel.READ_UNCOMMITTED));
    }

    /**
     * Several deciders' processed offsets as one: the furthest any of them has got per {@code topic-partition}
     * (each input partition is processed by its owner; the others report it behind or not at all).
     */
    public static Map<String, Long> furthest(Collection<Map<String, Long>> processedOffsets) {
        Map<String, Long> out = new HashMap<>();
        processedOffsets.forEach(m -> m.forEach((k, v) -> out.merge(k, v, Math::max)));
        return out;
    }

    /** A new wait for quiet: see {@link QuietCheck}. */
    public QuietCheck quietCheck(Supplier<Map<String, Long>> processedOffsets, Collection<String> inputs,
                                 Collection<String> outputs) {
        return new QuietCheck(processedOffsets, List.copyOf(inputs), List.copyOf(outputs));
    }

    /**
     * One wait for quiet, polled (e.g. by Awaitility) until {@link #isQuiet}: the deciders have processed every
     * record of {@code inputs} (forwarded copies included: they land on the inputs) at two looks in a row that found
     * the same input ends (a decision may lead to more input, an eviction to an admission, which may lead to another
     * request), and then no transaction is open on {@code outputs}, the topics the deciders write.
     */
    public final class QuietCheck {
        private final Supplier<Map<String, Long>> processedOffsets;
        private final List<String> inputs;
        private final List<String> outputs;
        /** The input ends of the previous look if it found them all processed, else null. */
        private Map<TopicPartition, Long> previousEnds;

        private QuietCheck(Supplier<Map<String, Long>> processedOffsets, List<String> inputs, List<String> outputs) {
            this.processedOffsets = processedOffsets;
            this.inputs = inputs;
            this.outputs = outputs;
        }

        /** One look, in the order of the class comment of {@link DeciderProgress}. */
        public synchronized boolean isQuiet() {
            Map<TopicPartition, Long> ends = inputEndsIfAllProcessed(processedOffsets, inputs);
            boolean sameAsBefore = ends != null && ends.equals(previousEnds);
            previousEnds = ends;
            return sameAsBefore && noTransactionOpen(outputs);
        }
    }

    @Override
    public synchronized void close() {
        admin.close(Duration.ofSeconds(5));
    }
}
