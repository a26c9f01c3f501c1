package dev.taskgov.service.support;

import dev.taskgov.core.events.EventCodec;
import dev.taskgov.core.events.InputOffsets;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.InvalidProducerEpochException;
import org.apache.kafka.common.errors.ProducerFencedException;
import org.apache.kafka.common.errors.WakeupException;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The consume-decide-produce loop with Kafka transactions, run on one dedicated thread, for the partitions of
 * the input topics this instance owns.
 *
 * <p>Group topics (the workload topics, whose partition {@code i} holds the same clusters on every topic,
 * {@code ClusterPartitions}) are consumed in a consumer group with the {@link ClusterPartitionAssignor}:
 * partition number {@code i} of every group topic goes to one member, the partitions are spread evenly over the
 * members, and a partition moves (cooperatively) only when a member leaves, dies or joins. Each owned partition
 * number is a <em>task</em> with its own processor (the state of its clusters), its own transactional producer
 * and its own reader of the side topics (compacted state such as quotas and nodes, read from the beginning
 * without the group; a side topic named as partitioned is read at the task's partition only).
 *
 * <p>A session starts by reading how many partitions the first group topic has: every task's scope (which clusters
 * it owns, which partition of a topic split like the inputs its outputs go to) is built on that count, so the loop
 * waits for it (up to the rebuild timeout, then the session starts again) while the topic is not in the broker's
 * metadata yet (created moments before, as a deployment starting together does), rather than take 1.
 *
 * <p>When a task starts (its partition is assigned) the loop (1) creates its transactional producer with the
 * stable {@code transactional.id} {@code <prefix><partition>} and calls {@code initTransactions()}, which fences
 * the partition's previous owner (a zombie's next send or commit fails) and aborts its open transaction at
 * once, (2) asks the processor to rebuild its state (whatever does not come from the side topics), (3) replays
 * the side topics to their end (read_committed), (4) lets the processor settle in a first transaction, then (5)
 * resumes the partition at its committed offsets. Each poll's records of one partition are processed in ONE
 * transaction of its task holding every emitted record and the consumed offsets: with an offsets topic
 * ({@link Settings#offsetsTopic}, the deciders' changelogs) as one {@link InputOffsets} record per input partition in
 * that topic, read back with the state (a rebuild, a standby) and resumed from; otherwise committed to the group
 * ({@code sendOffsetsToTransaction} with the group metadata, so a member of an older generation cannot commit
 * either). The changelog way spares each transaction two waits (AddOffsetsToTxn to the transaction coordinator and
 * TxnOffsetCommit to the group coordinator) and the marker on the group's offsets partition at its end; a zombie
 * cannot commit its offsets there either, since the next owner's fence comes first and aborts its open transaction,
 * the offsets record with it. The group is then told the offsets without waiting, at most once a second (lag tools read
 * them there), and a resume takes the later of the changelog's and the group's (the group's alone on a changelog
 * written before offsets were kept in it). A poll returns up to
 * {@value #MAX_POLL_RECORDS} records, so a backlog is taken in few large transactions; a poll of many records is
 * followed by a short second one ({@link #CATCH_UP_MIN_RECORDS}), so that what arrived while the last turn committed
 * joins this batch rather than the next. With a commit interval ({@link Turns#commitInterval}), a turn that read
 * records while they come at {@link Turns#batchFromRate} or faster ({@link CommitPacer}) is followed by a pause until
 * that long after its start, and the next turn's poll is followed by the second one too: what arrived during the pause
 * is taken in one batch, so at a steady rate the broker sees one transaction per partition and interval rather than
 * one per few records (at the price of up to that long of waiting); records after a quiet spell, and a trickle below
 * that rate, are taken at once, as without it. With first topics ({@link Settings#firstTopics}: records
 * that free capacity), while the other topics have a backlog (records held, or more than
 * {@link #RECORDS_BEHIND_FOR_FIRST_POLL} waiting), each turn first polls those alone, the other group topics paused (the
 * consumer then hands out what it fetched of them ahead of a fetched backlog of the others, which stays in it, in
 * order); a turn takes at most {@link #TURN_RECORDS_BEHIND_FIRST} of the other topics' records and holds the rest in
 * memory, in order, their partitions paused until every held record is taken; offsets are committed only up to what was
 * applied, and a partition read again from its committed offsets (a recovery, a revocation) forgets what was held of
 * it. The loop thread applies every
 * task's batch of a turn, then their commits (which wait for the broker) run at once, one thread each, and the turn
 * handles their outcomes before the next poll. A task whose partition read
 * nothing in a turn still ends a batch in a transaction when its processor says time made work due
 * ({@link Processor#dueWhileIdle}).
 *
 * <p>Warm standbys: for a processor that is a {@link Standby} (its whole state comes from the side
 * topics, e.g. its changelog partition plus quotas and nodes, or its rebuild reads sources of its own that it can
 * follow: preemption's, whose view comes from the state topics), the loop keeps one standby per partition number
 * it does not own: a processor that has opened its sources without reading them ({@link Standby#startFollowing}
 * instead of (2)) and, between polls, applies what they and the side topics (3) have fetched
 * ({@link Standby#follow}), deciding nothing and holding no producer, only a connected one for later. Taking such a
 * partition over is then (1), reading its own sources and the side topics from where the standby is to their end
 * (after the fence, so the previous owner's last commit is in and its open transaction is not), (4) and (5): the
 * processor has seen the same records as a rebuild would, only earlier, and in the same order within each topic
 * partition (the order across its own sources and the side topics may differ from a rebuild's, which a processor
 * keeping standbys must not depend on). Once a task decides, its reader skips the processor's own output
 * ({@link Recovery#ownSideTopics}, its changelog).
 *
 * <p>A record on the wrong partition (a producer that did not partition by cluster) is forwarded, in the same
 * transaction, to the partition its processor names ({@link Processor#home}), with the header
 * {@value #FORWARDED_HEADER}; its owner applies it there. A record whose processing throws is retried once
 * after an abort and a rebuild of its task; the second time it is dead-lettered (the loop never stops on a bad
 * record). So is a record whose output Kafka refuses at the commit ({@link Outbox#refusesTheRecord}: too large for
 * its topic, a topic not writable), with the refusal as the reason: the outbox remembers which input record emitted
 * what, and that record is blamed, not the one being handled when the transaction broke (the first refusal only: Kafka
 * fails the records not yet sent with it too, and another record at fault is refused again in the retry). An output emitted by no
 * input record ({@link Processor#afterBatch}, {@link Recovery#settle}) blames nobody, nor does a refused forwarded
 * copy (sent by the loop, not through the outbox): the batch is retried after a pause and the partition stalls until
 * the cause is fixed. A side record whose restore throws ({@link Recovery#restoreSide}, in a rebuild, a takeover or a
 * standby's step) is left out of the state, poisoned (the task's later rebuilds skip it) and dead-lettered with the
 * failure as its reason in the task's settle (it has no offset to commit); the loop thread goes on. A dead letter
 * that cannot be written aborts its
 * transaction too: the offsets stay uncommitted and the batch is retried (after a pause) until the dead-letter topic
 * takes it. A fenced producer or a lost
 * generation ends the session; the loop rejoins the group.
 *
 * <p>Known gaps. (1) The list of records whose handling failed (the poison list) is the task's own, in memory: its
 * owner's later rebuilds skip such a side-topic record, but a warm standby of the partition (on another instance, or
 * on this one once the partition has moved) does not know the list and restores the record like any other, so the
 * state it takes over can differ from the owner's by that record, as a cold rebuild after a restart (which has lost
 * the list too) does; and a side record whose restore throws is dead-lettered again by each task that restores it
 * anew (the next owner, a restart). (2) Early fencing cannot
 * be called back: the {@code initTransactions()} of a partition assigned, then revoked before it was taken, may still
 * reach the transaction coordinator after the next owner's (another instance, or this one assigned the partition
 * again); it then bumps the producer epoch once more and fences the next owner's producer, whose next send or commit
 * fails with a {@code ProducerFencedException}, so that owner ends its session and rejoins the group (its partitions
 * are taken again, from the standbys where it keeps them). A delay, never a double decision: the cancelled fencing's
 * producer is closed as soon as its {@code initTransactions()} returns and never begins a transaction. It takes a
 * revocation within the fencing's round trips (about 100 ms) of the assignment, i.e. two rebalances in quick
 * succession, such as a member joining while another dies.
 */
public final class TransactionalLoop implements Runnable, AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TransactionalLoop.class);
    private static final Duration DEAD_LETTER_RETRY_PAUSE = Duration.ofSeconds(1);
    private static final long PAUSE_STEP_NANOS = 10_000_000L;
    /** Header of a record forwarded to its cluster's partition (value: where it was read, topic-partition@offset). */
    public static final String FORWARDED_HEADER = "taskgov-forwarded-from";
    /** Records one poll may return (a batch: one transaction per owned partition), unless the client settings say. */
    static final int MAX_POLL_RECORDS = 5_000;
    /** The transactional producers' {@code retry.backoff.ms} (Kafka's default is 100), unless the client settings say. */
    static final int TRANSACTION_RETRY_BACKOFF_MS = 2;
    /**
     * The transactional producers' {@code linger.ms} and {@code batch.size} (Kafka's are 5 ms and 16 KiB), unless the
     * client settings say. A reader sees a transaction's records only once it commits, and the commit sends whatever is
     * still held at once, so lingering delays no reader; a turn's records then reach the broker in a few large produce
     * requests instead of a 16 KiB batch per partition every 5 ms. The broker's cost is mostly per request and per
     * batch, and so is the sender's (docs/benchmarks.md, "Decider settings and their measured effect"). A batch must
     * fit every topic written ({@code max.message.bytes}; Kafka's default is 1 MiB): Kafka's producer splits a batch the
     * topic refuses into batches of the same size, again and again (KAFKA-8350), until the transaction times out. So
     * the loop reads the limits of {@link Settings#writtenTopics} as it starts and keeps the batch size within the
     * smallest ({@link #transactionalProducerProps(Properties, String, int)}).
     */
    static final int TRANSACTION_LINGER_MS = 100;
    static final int TRANSACTION_BATCH_BYTES = 256 * 1024;
    /** How long the loop waits for the written topics' limits as it starts: a broker not up yet costs no more. */
    private static final long LIMITS_TIMEOUT_MS = 10_000;
    /** {@link Processor#home} answer for a record every partition must see (e.g. a finish naming no cluster). */
    public static final int EVERY_PARTITION = -1;
    /**
     * How long a busy turn's second poll waits ({@link #CATCH_UP_MIN_RECORDS}): a few fetch round trips on one host. A
     * fetch slower than that is not lost: its records are the next poll's, as without the second poll.
     */
    public static final Duration CATCH_UP_WAIT = Duration.ofMillis(3);
    /**
     * Records from which a poll is followed by a second, short one. A poll answers from the fetch the consumer sent when
     * the previous poll returned (it pipelines), and the broker answers a fetch with what it has at once: under load,
     * early in the last turn, so what arrived during the rest of it (its commit's round trips) is still at the broker
     * and would wait one more turn. A poll that returns this many records tells of such a load (records arrive faster
     * than turns end); the second poll, up to {@link Settings#catchUpWait()}, fetches the rest into the same batch. A
     * quiet partition's few records (a submission at a time) do not pay its wait.
     */
    static final int CATCH_UP_MIN_RECORDS = 8;
    /**
     * Records of the other group topics a turn takes at most when {@link Settings#firstTopics} are set: a turn stays
     * short (about a hundred milliseconds of work at a depth of 100,000), so freed capacity is decided on soon after it is read, and
     * a backlog is read at that many records per turn.
     */
    static final int TURN_RECORDS_BEHIND_FIRST = 250;
    /**
     * Records of the other group topics held or waiting at the broker beyond which each turn polls the first topics
     * alone first. Not below: that poll's fetch asks for the first topics alone, and while it is out a submission on
     * a free cluster waits the fetch wait for its own.
     */
    static final int RECORDS_BEHIND_FOR_FIRST_POLL = 1_000;
    /** The longest {@link Turns#commitInterval}: longer would hold every decision of a steady stream that long. */
    public static final Duration MAX_COMMIT_INTERVAL = Duration.ofSeconds(1);

    /**
     * How the loop sizes its turns, each one transaction per owned partition that read something.
     *
     * @param catchUpWait    how long a busy turn's second poll waits ({@link #CATCH_UP_MIN_RECORDS})
     * @param commitInterval the least time from the start of a turn that batches to the start of the next one; zero
     *                       starts each turn as soon as records are there. A transaction's cost is mostly fixed (the
     *                       offsets, its end, the markers, the readers woken), so at a steady rate an interval makes
     *                       the transactions fewer and larger: less CPU for the deciders and the broker, each record
     *                       waiting up to the interval more (docs/benchmarks.md)
     * @param batchFromRate  the rate, in records per second read from the group topics, from which a turn batches
     *                       ({@link CommitPacer}): below it each turn starts as soon as records are there, so a lone
     *                       record is decided at once; 0 makes every turn that read records wait (a fixed interval)
     */
    public record Turns(Duration catchUpWait, Duration commitInterval, int batchFromRate) {
        /** The second poll's wait of {@link #CATCH_UP_WAIT}, no commit interval. */
        public static final Turns DEFAULTS = new Turns(CATCH_UP_WAIT, Duration.ZERO, 0);

        public Turns {
            if (catchUpWait == null || catchUpWait.isNegative()) {
                throw new IllegalArgumentException("the second poll's wait must be zero or more, not " + catchUpWait);
            }
            if (commitInterval == null || commitInterval.isNegative() || commitInterval.compareTo(MAX_COMMIT_INTERVAL) > 0) {
                throw new IllegalArgumentException("the commit interval must be from 0 to " + MAX_COMMIT_INTERVAL.toMillis()
                        + " ms, not " + (commitInterval == null ? null : commitInterval.toMillis() + " ms"));
            }
            if (batchFromRate < 0) {
                throw new IllegalArgumentException("the rate from which turns batch must be zero or more records per second, not "
                        + batchFromRate);
            }
        }

        /** A fixed interval: every turn that read records waits it out. */
        public Turns(Duration catchUpWait, Duration commitInterval) {
            this(catchUpWait, commitInterval, 0);
        }

        /** The default second poll with this commit interval, batching from this rate. */
        public static Turns withCommitInterval(Duration commitInterval, int batchFromRate) {
            return new Turns(CATCH_UP_WAIT, commitInterval, batchFromRate);
        }
    }

    /**
     * How this member takes part in the group: how fast a dead member is noticed (its session times out; the
     * broker's {@code group.min.session.timeout.ms} bounds it from below) and, optionally, a static identity
     * ({@code group.instance.id}: a restart within the session timeout gets its partitions back without a
     * rebalance, at the price of no handover on a clean stop before the timeout).
     */
    public record Membership(Duration sessionTimeout, Duration heartbeatInterval, String groupInstanceId) {
        /** Kafka's client defaults: a dead member's clusters wait 45 s. */
        public static final Membership KAFKA_DEFAULTS = new Membership(Duration.ofSeconds(45), Duration.ofSeconds(3), null);
    }

    /**
     * @param clientProps             bootstrap servers and any client settings shared by consumers and producers
     * @param groupId                 consumer group of the deciders
     * @param groupTopics             input topics split by cluster; partition i of each goes to one owner
     * @param sideTopics              compacted topics every task reads
     * @param partitionedSideTopics   those of the side topics split by cluster like the inputs (a task reads its
     *                                partition of them when their partition count is the inputs', else all)
     * @param transactionalIdPrefix   a task's transactional id is this plus its partition number, for zombie fencing
     * @param source                  CloudEvents {@code ce_source} of what this loop emits
     * @param deadLetterTopic         where refused records go
     * @param pollTimeout             how long one poll waits
     * @param rebuildTimeout          how long reading a topic to its end may take
     * @param membership              session timeout, heartbeat and static identity in the group
     * @param moreGroupTopics         null, or a pattern naming more group topics, subscribed with {@code groupTopics}
     *                                by pattern so that a topic created later (a new team's submission topic) joins;
     *                                they are split by cluster like the group topics
     * @param turns                   the second poll's wait and the commit interval
     * @param offsetsTopic            null, or the side topic (the processor's changelog) where each transaction records
     *                                the input offsets it consumed ({@link InputOffsets}), in place of committing them to
     *                                the group inside the transaction; a task resumes its partitions where they say
     * @param firstTopics             group topics read ahead of the others' backlog (records that free capacity, such
     *                                as finishes): a turn takes at most
     *                                {@link #TURN_RECORDS_BEHIND_FIRST} records of the other group topics, and the rest
     *                                of those wait, in order, for the next turns ({@link #withFirstTopics}); empty: none
     * @param writtenTopics           the topics the processors' transactions write, whose record-batch limit the
     *                                producers' batches must stay within ({@link #TRANSACTION_BATCH_BYTES}); the loop
     *                                reads their limits once, as it starts ({@link #withWrittenTopics}); empty: none read
     */
    public record Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                           Set<String> partitionedSideTopics, String transactionalIdPrefix, String source,
                           String deadLetterTopic, Duration pollTimeout, Duration rebuildTimeout, Membership membership,
                           Pattern moreGroupTopics, Turns turns, String offsetsTopic, Set<String> firstTopics,
                           Set<String> writtenTopics) {

        public Settings {
            writtenTopics = writtenTopics == null ? Set.of() : Set.copyOf(writtenTopics);
            if (offsetsTopic != null && !sideTopics.contains(offsetsTopic)) {
                throw new IllegalArgumentException("the offsets topic " + offsetsTopic + " must be one of the side topics "
                        + sideTopics + ": a task reads its offsets back from there");
            }
            firstTopics = firstTopics == null ? Set.of() : Set.copyOf(firstTopics);
            for (String topic : firstTopics) {
                if (!groupTopics.contains(topic)) {
                    throw new IllegalArgumentException("firstTopics: " + topic + " must be one of the group topics "
                            + groupTopics + ": only those are read ahead of the others");
                }
            }
        }

        /** The settings with no topic read ahead of the others. */
        public Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                        Set<String> partitionedSideTopics, String transactionalIdPrefix, String source,
                        String deadLetterTopic, Duration pollTimeout, Duration rebuildTimeout, Membership membership,
                        Pattern moreGroupTopics, Turns turns, String offsetsTopic) {
            this(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix, source,
                    deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, turns, offsetsTopic, Set.of(),
                    Set.of());
        }

        /** The settings with the offsets committed to the group in each transaction. */
        public Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                        Set<String> partitionedSideTopics, String transactionalIdPrefix, String source,
                        String deadLetterTopic, Duration pollTimeout, Duration rebuildTimeout, Membership membership,
                        Pattern moreGroupTopics, Turns turns) {
            this(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix, source,
                    deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, turns, null);
        }

        /** The settings with {@link Turns#DEFAULTS}. */
        public Settings(Properties clientProps, String groupId, List<String> groupTopics, List<String> sideTopics,
                        Set<String> partitionedSideTopics, String transactionalIdPrefix, String source,
                        String deadLetterTopic, Duration pollTimeout, Duration rebuildTimeout, Membership membership,
                        Pattern moreGroupTopics) {
            this(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix, source,
                    deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, Turns.DEFAULTS, null);
        }

        /** These settings with the input offsets recorded in {@code topic} ({@link #offsetsTopic}). */
        public Settings withOffsetsIn(String topic) {
            return new Settings(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix,
                    source, deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, turns, topic, firstTopics,
                    writtenTopics);
        }

        /** These settings with {@code topics} read ahead of the other group topics' backlog ({@link #firstTopics}). */
        public Settings withFirstTopics(Set<String> topics) {
            return new Settings(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix,
                    source, deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, turns, offsetsTopic, topics,
                    writtenTopics);
        }

        /** These settings with the producers' batches kept within what {@code topics} accept ({@link #writtenTopics}). */
        public Settings withWrittenTopics(Set<String> topics) {
            return new Settings(clientProps, groupId, groupTopics, sideTopics, partitionedSideTopics, transactionalIdPrefix,
                    source, deadLetterTopic, pollTimeout, rebuildTimeout, membership, moreGroupTopics, turns, offsetsTopic,
                    firstTopics, topics);
        }

        /** The group topics and the pattern's, as one pattern. */
        Pattern groupTopicPattern() {
            StringBuilder alternatives = new StringBuilder();
            for (String topic : groupTopics) alternatives.append(Pattern.quote(topic)).append('|');
            return Pattern.compile(alternatives + moreGroupTopics.pattern());
        }
    }

    /**
     * What the service plugs in: the state and decisions of one partition's clusters. A record is decoded once, at the
     * edge ({@link #decode}), into the processor's own input type {@code I}; routing ({@link #home}) and application
     * ({@link #apply}) both take that value, so they read the record the same way and parse it once. How the state is
     * built and dropped is the {@link Recovery} part; a processor that can be kept warm for a partition it does not own
     * also implements {@link Standby}. All methods run on the loop thread.
     */
    public interface Processor<I> extends Recovery<I> {
        /**
         * Reads a record (group or side topic) into this processor's input. Never throws for a bad record: one that does
         * not parse becomes an input that says why, refused where it is ({@link #apply}) or skipped while restoring.
         */
        I decode(ConsumerRecord<String, byte[]> record);

        /**
         * The partition (of a topic with {@code partitions} partitions) whose owner must apply this group-topic
         * record: its cluster's partition, {@link TransactionalLoop#EVERY_PARTITION} when it names no cluster and every owner may
         * hold its workload, or where it is ({@code record.partition()}, the default) to apply it here.
         */
        default int home(ConsumerRecord<String, byte[]> record, I input, int partitions) {
            return record.partition();
        }

        /** Handle one record (group or side topic); emit decisions and refusals through the outbox. */
        void apply(ConsumerRecord<String, byte[]> record, I input, Outbox outbox);

        /**
         * After every record of one poll was applied, in the same transaction: the place to run a
         * decision cycle once for the batch (records committed together, such as the victims of
         * one preemption, are then seen together).
         */
        void afterBatch(Outbox outbox);

        /**
         * Whether the processor has work that time alone makes due (ended workloads whose retention elapsed, grace
         * periods that ended) at {@code now}, by the loop's clock: asked at every turn in which its partition read
         * nothing; when true the loop runs {@link #afterBatch} in a transaction of its own, as for a batch without
         * records, so that such work is done while no record arrives. The loop's only wake-up: a decider keeps no
         * timer of its own.
         */
        default boolean dueWhileIdle(java.time.Instant now) {
            return false;
        }

        /**
         * The loop itself refused a record whose processing failed twice (it went to the dead-letter topic
         * with the reason): the place to count it.
         */
        default void refusedAfterFailure(ConsumerRecord<String, byte[]> record, String reason) {
        }

        /**
         * The dead letter of {@code record} could not be written (dead-letter topic missing, broker refusing):
         * the transaction was aborted, so the record's offset is not committed and it is processed again; the
         * place to count the failure.
         */
        default void deadLetterWriteFailed(ConsumerRecord<String, byte[]> record, Exception cause) {
        }
    }

    /**
     * How a processor's state is built when its partition is taken (a rebuild, then the side topics, then a settle),
     * and dropped when it is lost.
     */
    public interface Recovery<I> {
        /** Drop all state and load what does not come from the side topics (e.g. topics of its own); no decisions yet. */
        void rebuild(Properties clientProps, Duration timeout);

        /**
         * Apply a side-topic record, decoded by {@link Processor#decode}, while the state is built: update the view,
         * decide nothing. If it throws, the loop leaves the record out and dead-letters it (see the class comment).
         */
        void restoreSide(ConsumerRecord<String, byte[]> record, I input);

        /** After a rebuild: make the decisions the restored state calls for. */
        void settle(Outbox outbox);

        /** This instance no longer decides for these clusters: drop the state. */
        void revoked();

        /**
         * The side topics this processor writes itself (its changelog): read to build the state (by a rebuild or a
         * standby), no longer read once it decides, since what it writes is in its state already.
         */
        default Set<String> ownSideTopics() {
            return Set.of();
        }
    }

    /**
     * A processor the loop keeps as a warm standby of every partition this instance does not own: one whose whole
     * state comes from the side topics (the defaults: following them is the loop's), or whose {@link Recovery#rebuild}
     * reads sources of its own that {@link #startFollowing} and {@link #follow} keep current.
     */
    public interface Standby {
        /**
         * A warm standby starts, in place of {@link Recovery#rebuild}: drop all state and open the sources a rebuild
         * reads at their beginning, without waiting for them ({@link #follow} reads them), so the loop thread goes on
         * deciding for the partitions it owns. The default drops nothing more than {@link Recovery#revoked}, which
         * the loop calls first: right for a processor that reads nothing itself.
         */
        default void startFollowing(Properties clientProps, Duration timeout) {
        }

        /**
         * A standby's step: apply what the sources of its own (those {@link Recovery#rebuild} reads) have committed
         * since, deciding nothing. Between polls ({@code toEnd} false) it takes what has been fetched and does not
         * wait; at the takeover, after the previous owner is fenced ({@code toEnd} true), it reads up to their end
         * offsets of now, as a rebuild would have. Answers whether it is at the end of its sources as far as it knows
         * (a standby is reported caught up once this and the side topics are).
         */
        default boolean follow(boolean toEnd) {
            return true;
        }
    }

    /**
     * Why handling a record failed, and whether the next time it comes it is refused (dead-lettered with the reason)
     * rather than tried again: a failure is retried once, after the rebuild that follows it; a second one, or one while
     * restoring the state, is not.
     */
    private record Poison(String reason, boolean refuse) {
        static Poison retryOnce(String reason) {
            return new Poison(reason, false);
        }

        static Poison refused(String reason) {
            return new Poison(reason, true);
        }

        /** The retry is spent: the next time the record comes, it is refused. */
        Poison retried() {
            return refuse ? this : refused(reason);
        }
    }

    /** One owned partition number: its processor, producer and side reader. */
    private final class Task {
        final PartitionScope scope;
        /** The processor of this partition, as the loop sees it: whatever it decodes, it gets back ({@link Processor#decode}). */
        final Processor<Object> processor;
        /** Records whose handling failed, by coordinates: retried once after a rebuild, then refused. */
        final Map<String, Poison> poison = new HashMap<>();
        /** Side records whose restore threw, to dead-letter in the task's next settle (they have no offset to commit). */
        final List<ConsumerRecord<String, byte[]>> unrestorable = new ArrayList<>();
        /**
         * With {@link Settings#offsetsTopic}: where each input partition of this task resumes, as its changelog says
         * (read with the state, kept up to date by the task's commits).
         */
        final Map<TopicPartition, Long> inputOffsets = new HashMap<>();
        KafkaProducer<String, byte[]> producer;
        KafkaConsumer<String, byte[]> side;
        volatile boolean ready;
        /** When the group gave this partition to the instance (System.nanoTime), until its first batch is committed. */
        long assignedAt;
        /** Standby only: the records it has followed, and whether it has once reached the end of its side topics. */
        long followed;
        boolean caughtUp;
        /** Standby only: its future producer, connected ahead of a takeover (null once handed to the fencing). */
        CompletableFuture<KafkaProducer<String, byte[]>> connecting;

        Task(PartitionScope scope) {
            this.scope = scope;
            this.processor = erased(processors.apply(scope));
        }

        /** A processor's {@link Processor#decode} answer goes only to the same processor's home, apply and restore. */
        @SuppressWarnings("unchecked")
        private static Processor<Object> erased(Processor<?> processor) {
            return (Processor<Object>) processor;
        }

        Outbox outbox() {
            return new Outbox(producer, settings.source(), settings.deadLetterTopic(), clock, scope, partitionCounts);
        }
    }

    private final Settings settings;
    private final Function<PartitionScope, ? extends Processor<?>> processors;
    private final Clock clock;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final Map<Integer, Task> tasks = new ConcurrentHashMap<>();
    /**
     * Partitions assigned but not taken yet (paused): taken one per loop turn, outside the rebalance callback, so
     * that the first one decides after one rebuild and the group's next rebalance is not held up.
     */
    private final java.util.Deque<Integer> pending = new java.util.concurrent.ConcurrentLinkedDeque<>();
    /** When each pending partition was assigned (System.nanoTime), to time the takeover from there. */
    private final Map<Integer, Long> assignedAt = new ConcurrentHashMap<>();
    /**
     * The producers of the pending partitions, fencing their previous owners ({@code initTransactions()}) in the
     * background from the moment of the assignment: the partitions of a dead instance are fenced at once, not one
     * per loop turn.
     */
    private final Map<Integer, CompletableFuture<Fenced>> fencing = new ConcurrentHashMap<>();
    private final ExecutorService fencers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "transactional-loop-fence");
        t.setDaemon(true);
        return t;
    });
    /** Commit the turn's batches of several owned partitions at once ({@link #commitAll}). */
    private final ExecutorService committers = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "transactional-loop-commit");
        t.setDaemon(true);
        return t;
    });

    /** A producer whose {@code initTransactions()} has returned, and how long that took. */
    private record Fenced(KafkaProducer<String, byte[]> producer, long millis) {
    }
    /**
     * Warm standbys (only of processors that are a {@link Standby}): one per partition number
     * this instance does not own, following the side topics and the processor's own sources (no decisions, a
     * producer connected but not initialised), so a takeover reads only the tail. Loop thread only.
     */
    private final Map<Integer, Task> standbys = new java.util.concurrent.ConcurrentSkipListMap<>();
    private boolean standbysUnsupported;
    private final java.util.concurrent.atomic.AtomicLong warmTakeovers = new java.util.concurrent.atomic.AtomicLong();
    private final Map<String, Long> processed = new ConcurrentHashMap<>();
    /**
     * With {@link Settings#offsetsTopic}: the offsets committed in the changelog that the group has not been told yet
     * (loop thread only). The group's copy is for lag tools and never ahead of the changelog, so it is sent at most
     * once per {@link #GROUP_COPY_SPACING}, not after every transaction: each OffsetCommit is a write to the group's
     * offsets topic, which at a steady rate was one more broker append per transaction.
     */
    private final Map<TopicPartition, OffsetAndMetadata> groupCopy = new HashMap<>();
    private long groupCopySentAt;
    /** How often at most the group is told the offsets recorded in the changelog. */
    static final Duration GROUP_COPY_SPACING = Duration.ofSeconds(1);
    /** Partition count per topic, as read at the start of a session (what {@link Processor#home} is computed on). */
    private final Map<String, Integer> partitionCounts = new ConcurrentHashMap<>();
    /**
     * Records of the group topics other than {@link Settings#firstTopics} read but not taken yet (loop thread only), by
     * topic partition, in order; their partitions are paused while any are held, so none is read ahead of them.
     */
    private final Map<TopicPartition, ArrayDeque<ConsumerRecord<String, byte[]>>> held = new LinkedHashMap<>();
    private int heldCount;
    /**
     * Records of the other group topics held or waiting at the broker as the last turn ended (loop thread only). The
     * first topics are polled alone only while some are held or these are a backlog: that poll sends a fetch for the
     * first topics alone, and while it is out the consumer sends no other to that broker, so when no first record
     * comes a submission on a free cluster would wait the whole fetch wait.
     */
    private long behindFirst;
    private volatile long lag;
    private volatile int inputPartitions = 1;
    private volatile KafkaConsumer<String, byte[]> consumer;
    /**
     * The largest record batch every written topic accepts ({@link Settings#writtenTopics}), read as the loop starts;
     * 0 until read (again at the next session if the read failed: the producers batch as configured meanwhile).
     */
    private volatile int largestBatchAccepted;

    /**
     * @param processors makes the processor of one owned partition (called when the partition is assigned; the
     *                   processor is dropped when it is revoked)
     */
    public TransactionalLoop(Settings settings, Function<PartitionScope, ? extends Processor<?>> processors, Clock clock) {
        this.settings = settings;
        this.processors = processors;
        this.clock = clock;
    }

    /** True while this instance owns at least one partition and has rebuilt the state of every one it owns. */
    public boolean isDecider() {
        List<Task> owned = List.copyOf(tasks.values());
        return pending.isEmpty() && !owned.isEmpty() && owned.stream().allMatch(t -> t.ready);
    }

    /** The processors of the owned partitions whose state is rebuilt, by partition number. */
    public Map<Integer, Processor<?>> processors() {
        Map<Integer, Processor<?>> out = new TreeMap<>();
        tasks.forEach((n, t) -> {
            if (t.ready) out.put(n, t.processor);
        });
        return out;
    }

    /** The partition numbers this instance owns (rebuilt or not). */
    public Set<Integer> ownedPartitions() {
        Set<Integer> out = new TreeSet<>(tasks.keySet());
        out.addAll(pending);
        return out;
    }

    /** The partition numbers this instance keeps a warm standby of (it does not own them). */
    public Set<Integer> standbyPartitions() {
        return new TreeSet<>(standbys.keySet());
    }

    /** How many partitions this instance took over from its warm standby (not rebuilt from the beginning) so far. */
    public long warmTakeovers() {
        return warmTakeovers.get();
    }

    /** How many partitions the group topics have (as of the current session). */
    public int inputPartitions() {
        return inputPartitions;
    }

    /** Next offset to process per {@code topic-partition}, for the records committed so far (group and side). */
    public Map<String, Long> processedOffsets() {
        return Map.copyOf(processed);
    }

    /** Records behind the end of the owned group partitions at the last poll. */
    public long lag() {
        return lag;
    }

    @Override
    public void run() {
        while (running.get()) {
            try {
                session();
            } catch (ProducerFencedException | InvalidProducerEpochException e) {
                LOG.warnf("another instance took over a partition (%s); rejoining", e.getMessage());
            } catch (WakeupException | InterruptException e) {
                if (running.get()) LOG.warn("loop interrupted; restarting", e);
            } catch (KafkaException e) {
                LOG.warn("Kafka session failed; rejoining", e);
            } finally {
                new ArrayList<>(tasks.keySet()).forEach(this::drop);
                new ArrayList<>(fencing.keySet()).forEach(this::cancelFencing);
                standbys.values().forEach(s -> {
                    s.processor.revoked(); // closes what it opened to follow its own sources
                    closeQuietly(s.side);
                    if (s.connecting != null) s.connecting.whenComplete((p, e) -> closeQuietly(p));
                });
                standbys.clear();
                pending.clear();
                processed.clear();
                groupCopy.clear();
                held.clear();
                heldCount = 0;
            }
        }
    }

    private void session() {
        if (largestBatchAccepted == 0) largestBatchAccepted = readLargestBatchAccepted();
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ConsumerConfig.GROUP_ID_CONFIG, settings.groupId());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.GROUP_PROTOCOL_CONFIG, "classic");
        props.put(ConsumerConfig.PARTITION_ASSIGNMENT_STRATEGY_CONFIG, ClusterPartitionAssignor.class.getName());
        // A partition resumed after its takeover is fetched by the next fetch request, once the one in flight returns:
        // on idle partitions that one waits this long (Kafka's default is 500 ms).
        props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 100);
        // A batch costs a transaction (its offsets, then its commit: round trips the loop waits for) whatever its
        // size, so a backlog is taken in large batches (Kafka's default is 500 records per poll); a fetch still returns
        // what is there, so a quiet partition's batches stay small and quick.
        props.putIfAbsent(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, MAX_POLL_RECORDS);
        Membership m = settings.membership();
        props.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, (int) m.sessionTimeout().toMillis());
        props.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, (int) m.heartbeatInterval().toMillis());
        if (m.groupInstanceId() != null && !m.groupInstanceId().isBlank()) {
            props.put(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG, m.groupInstanceId());
        }
        // A topic that matches the pattern joins at the next metadata refresh: within seconds, not Kafka's 5 minutes.
        if (settings.moreGroupTopics() != null) props.putIfAbsent(ConsumerConfig.METADATA_MAX_AGE_CONFIG, "5000");
        try (KafkaConsumer<String, byte[]> c = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer())) {
            consumer = c;
            readPartitionCounts(c);
            ConsumerRebalanceListener listener = new ConsumerRebalanceListener() {
                @Override
                public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
                    numbers(partitions).forEach(TransactionalLoop.this::drop);
                }

                @Override
                public void onPartitionsLost(Collection<TopicPartition> partitions) {
                    numbers(partitions).forEach(TransactionalLoop.this::drop);
                }

                @Override
                public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
                    // Paused until taken (fenced and rebuilt) by the loop, one per turn. A partition of a number
                    // this instance already decides for (a topic that joined by the pattern later, e.g. a new team's
                    // submission topic) is read at once by that task: nobody would take, and so resume, it.
                    List<TopicPartition> untaken = partitions.stream().filter(tp -> !tasks.containsKey(tp.partition())).toList();
                    c.pause(untaken);
                    long now = System.nanoTime();
                    for (int n : numbers(untaken)) {
                        if (!pending.contains(n)) pending.add(n);
                        assignedAt.putIfAbsent(n, now);
                        fencing.computeIfAbsent(n, k -> startFencing(k));
                    }
                    if (!untaken.isEmpty()) LOG.infof("assigned partitions %s of %s", numbers(untaken), settings.groupTopics());
                }
            };
            if (settings.moreGroupTopics() == null) c.subscribe(settings.groupTopics(), listener);
            else c.subscribe(settings.groupTopicPattern(), listener);
            boolean pausedBefore = false; // the last turn waited out the commit interval
            CommitPacer pacer = new CommitPacer(settings.turns().commitInterval(), settings.turns().batchFromRate());
            while (running.get()) {
                Integer next = pending.poll();
                if (next != null) {
                    take(c, next);
                    List<TopicPartition> mine = c.assignment().stream().filter(tp -> tp.partition() == next).toList();
                    c.resume(mine);
                } else {
                    keepStandbysWarm();
                }
                List<ConsumerRecord<String, byte[]>> polled = new ArrayList<>();
                List<TopicPartition> heldBack = List.of();
                if (!settings.firstTopics().isEmpty() && (heldCount > 0 || behindFirst > RECORDS_BEHIND_FOR_FIRST_POLL)) {
                    // The first topics' records first: with the other group topics paused, a poll answers them from
                    // what the consumer has fetched, ahead of the others' fetched backlog (which stays, in order). The
                    // others stay paused while records of theirs are held: nothing newer of theirs is read meanwhile.
                    heldBack = pauseBehindFirst(c);
                    c.poll(Duration.ZERO).forEach(polled::add);
                    if (heldCount == 0) {
                        resumeHeldBack(c, heldBack);
                        heldBack = List.of();
                    }
                }
                // No wait when there is work at hand already.
                ConsumerRecords<String, byte[]> records = c.poll(polled.isEmpty() && heldCount == 0 ? settings.pollTimeout() : Duration.ZERO);
                long turnStart = System.nanoTime();
                Map<Integer, List<ConsumerRecord<String, byte[]>>> byPartition = new TreeMap<>();
                Consumer<ConsumerRecord<String, byte[]>> byItsPartition =
                        r -> byPartition.computeIfAbsent(r.partition(), k -> new ArrayList<>()).add(r);
                records.forEach(polled::add);
                // After a pause, the poll above answered from the fetch sent before it (records of its first moments):
                // the second one fetches the rest of what arrived during it.
                if (polled.size() >= CATCH_UP_MIN_RECORDS || (pausedBefore && !polled.isEmpty())) {
                    // A partition this poll revokes is dropped: its records (of either poll) are not applied here, and
                    // its next owner reads them again from the committed offsets.
                    c.poll(settings.turns().catchUpWait()).forEach(polled::add);
                }
                resumeHeldBack(c, heldBack);
                if (settings.firstTopics().isEmpty()) polled.forEach(byItsPartition);
                else takeFirstTopicsFirst(polled, byItsPartition);
                pausedBefore = false;
                Map<String, Long> sideDone = new HashMap<>();
                List<Task> turn = List.copyOf(tasks.values());
                List<Batch> batches = new ArrayList<>();
                for (Task task : turn) {
                    if (!task.ready) continue;
                    List<ConsumerRecord<String, byte[]>> sideRecords = new ArrayList<>();
                    // A reader assigned nothing (its side topics not found at the rebuild) must not poll: that throws.
                    if (!task.side.assignment().isEmpty()) task.side.poll(Duration.ZERO).forEach(sideRecords::add);
                    List<ConsumerRecord<String, byte[]>> mine = byPartition.getOrDefault(task.scope.partition(), List.of());
                    if (!mine.isEmpty() || !sideRecords.isEmpty() || task.processor.dueWhileIdle(clock.instant())) {
                        Batch b = apply(c, task, mine, sideRecords);
                        if (b != null) batches.add(b);
                    }
                }
                commitAll(c, batches);
                tellGroup(c);
                for (Task task : turn) {
                    if (!task.ready) continue;
                    // Positions, not last offsets + 1: they also step over transaction markers, so a
                    // caught-up decider reports exactly the topic's end offset (read_committed). Every task
                    // reads the side topics: a side record is processed once the slowest task has applied it.
                    if (task.side != null) {
                        for (TopicPartition tp : task.side.assignment()) sideDone.merge(key(tp), task.side.position(tp), Math::min);
                    }
                }
                processed.putAll(sideDone);
                long behind = heldCount;
                long others = heldCount;
                for (TopicPartition tp : c.assignment()) {
                    // A partition's held records are read but not processed: it is processed up to the first of them.
                    ArrayDeque<ConsumerRecord<String, byte[]>> itsHeld = held.get(tp);
                    processed.put(key(tp), itsHeld == null || itsHeld.isEmpty() ? c.position(tp) : itsHeld.peek().offset());
                    long itsLag = c.currentLag(tp).orElse(0);
                    behind += itsLag;
                    if (!settings.firstTopics().contains(tp.topic())) others += itsLag;
                }
                lag = behind;
                behindFirst = others;
                int read = 0;
                for (List<ConsumerRecord<String, byte[]>> l : byPartition.values()) read += l.size();
                if (pacer.waitsAfter(turnStart, read)) {
                    pausedBefore = waitUntil(turnStart + settings.turns().commitInterval().toNanos());
                }
            }
        } finally {
            consumer = null;
        }
    }

    /**
     * Splits a turn's polled records ({@link Settings#firstTopics}): the first topics' records all go to the turn; those
     * of the other group topics are held, then taken in order, at most {@link #TURN_RECORDS_BEHIND_FIRST} a turn
     * (shared over the held partitions), the rest waiting for the next turns. So a turn stays short whether or not
     * records that free capacity (finishes) are at hand: they may arrive at any moment, and a turn that took a whole
     * poll of a backlog of submissions (up to twice {@value #MAX_POLL_RECORDS} records, seconds of work) kept the ones
     * that came meanwhile waiting for its end. Within each topic partition the records keep their order; what is held
     * is never committed.
     */
    private void takeFirstTopicsFirst(List<ConsumerRecord<String, byte[]>> polled, Consumer<ConsumerRecord<String, byte[]>> turn) {
        List<ConsumerRecord<String, byte[]>> first = new ArrayList<>();
        for (ConsumerRecord<String, byte[]> r : polled) {
            if (settings.firstTopics().contains(r.topic())) {
                first.add(r);
            } else {
                held.computeIfAbsent(new TopicPartition(r.topic(), r.partition()), k -> new ArrayDeque<>()).add(r);
                heldCount++;
            }
        }
        int taken = 0;
        while (taken < TURN_RECORDS_BEHIND_FIRST && !held.isEmpty()) {
            int share = Math.max(1, (TURN_RECORDS_BEHIND_FIRST - taken) / held.size());
            for (var it = held.entrySet().iterator(); it.hasNext() && taken < TURN_RECORDS_BEHIND_FIRST; ) {
                var e = it.next();
                ArrayDeque<ConsumerRecord<String, byte[]>> q = e.getValue();
                Task task = tasks.get(e.getKey().partition());
                if (task == null || !task.ready) {
                    // Revoked by the poll: its next owner reads these again from the committed offsets.
                    it.remove();
                    continue;
                }
                for (int i = 0; i < share && taken < TURN_RECORDS_BEHIND_FIRST && !q.isEmpty(); i++, taken++) turn.accept(q.poll());
                if (q.isEmpty()) it.remove();
            }
        }
        heldCount = 0;
        for (ArrayDeque<ConsumerRecord<String, byte[]>> q : held.values()) heldCount += q.size();
        first.forEach(turn);
    }

    /**
     * Pauses the deciding tasks' partitions of the group topics other than the first ones, for one poll; answers them
     * (those not paused already: a partition waiting to be taken stays as it is).
     */
    private List<TopicPartition> pauseBehindFirst(KafkaConsumer<String, byte[]> c) {
        Set<TopicPartition> paused = c.paused();
        List<TopicPartition> out = new ArrayList<>();
        for (TopicPartition tp : c.assignment()) {
            if (settings.firstTopics().contains(tp.topic()) || paused.contains(tp)) continue;
            Task task = tasks.get(tp.partition());
            if (task != null && task.ready) out.add(tp);
        }
        c.pause(out);
        return out;
    }

    /** Resumes what {@link #pauseBehindFirst} paused, but for a partition revoked meanwhile or now waiting to be taken. */
    private void resumeHeldBack(KafkaConsumer<String, byte[]> c, List<TopicPartition> heldBack) {
        if (heldBack.isEmpty()) return;
        Set<TopicPartition> assigned = c.assignment();
        c.resume(heldBack.stream().filter(tp -> assigned.contains(tp) && tasks.containsKey(tp.partition())
                && !pending.contains(tp.partition())).toList());
    }

    /** Forgets the records held of partition number {@code n} (revoked, or read again from its committed offsets). */
    private void dropHeld(int n) {
        held.entrySet().removeIf(e -> {
            if (e.getKey().partition() != n) return false;
            heldCount -= e.getValue().size();
            return true;
        });
    }

    /**
     * Reads the partition counts of the group and side topics. The first group topic's count is the number every
     * task's scope is built on (which clusters it owns, which partition its outputs go to), so it is waited for: a
     * topic created moments before (the deciders create theirs at start) can be missing from the broker's metadata,
     * and {@code partitionsFor} then answers an empty list. Taking 1 partition then made every task of the session
     * believe it owned every cluster and send its outputs by key hash instead of to its own partition.
     */
    private void readPartitionCounts(KafkaConsumer<String, byte[]> c) {
        String first = settings.groupTopics().get(0);
        long deadline = System.nanoTime() + settings.rebuildTimeout().toNanos();
        Duration pause = Duration.ofMillis(50);
        List<PartitionInfo> firstInfos;
        while ((firstInfos = c.partitionsFor(first, settings.rebuildTimeout())) == null || firstInfos.isEmpty()) {
            if (!running.get()) return;
            if (System.nanoTime() > deadline) {
                throw new KafkaException(first + " has no partitions in the broker's metadata after " + settings.rebuildTimeout());
            }
            LOG.infof("%s has no partitions in the broker's metadata yet; waiting %d ms", first, pause.toMillis());
            pause(pause);
            pause = pause.multipliedBy(2).compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : pause.multipliedBy(2);
        }
        partitionCounts.put(first, firstInfos.size());
        List<String> others = new ArrayList<>(settings.groupTopics().subList(1, settings.groupTopics().size()));
        others.addAll(settings.sideTopics());
        for (String topic : others) {
            // Any other count missing here is asked for again when it is needed (Outbox, forwarding, standbys).
            List<PartitionInfo> infos = c.partitionsFor(topic, settings.rebuildTimeout());
            if (infos != null && !infos.isEmpty()) partitionCounts.put(topic, infos.size());
        }
        inputPartitions = firstInfos.size();
        for (String topic : settings.groupTopics()) {
            int n = partitionCounts.getOrDefault(topic, inputPartitions);
            if (n != inputPartitions) {
                LOG.warnf("%s has %d partitions and %s %d: a cluster's records are on different partition numbers, so each "
                        + "is forwarded to its cluster's partition of its own topic", topic, n, settings.groupTopics().get(0),
                        inputPartitions);
            }
        }
    }

    private static Set<Integer> numbers(Collection<TopicPartition> partitions) {
        Set<Integer> out = new TreeSet<>();
        partitions.forEach(tp -> out.add(tp.partition()));
        return out;
    }

    /**
     * Starts deciding for partition {@code n}: fence its previous owner, then either catch its warm standby up to
     * the end of the side topics (what the previous owner committed until it was fenced) or rebuild from the
     * beginning, settle, and resume at the committed offsets.
     */
    private void take(KafkaConsumer<String, byte[]> c, int n) {
        long start = System.nanoTime();
        Task standby = standbys.remove(n);
        Task task = standby != null ? standby : new Task(new PartitionScope(n, inputPartitions));
        Long assigned = assignedAt.remove(n);
        task.assignedAt = assigned == null ? start : assigned;
        tasks.put(n, task);
        // The previous owner is fenced and its open transaction aborted: the side topics' end is final from here.
        CompletableFuture<Fenced> inProgress = fencing.remove(n);
        Fenced f;
        try {
            f = (inProgress != null ? inProgress : startFencing(n)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
        task.producer = f.producer();
        long fenced = System.nanoTime();
        String how;
        if (standby != null) {
            int tail;
            try {
                ((Standby) task.processor).follow(true);
                tail = readSideToEnd(task);
            } catch (KafkaException e) {
                LOG.warnf("standby of partition %d could not catch up (%s); rebuilding it", n, e.toString());
                tail = -1;
            }
            if (tail < 0) {
                rebuild(task);
                how = "standby failed, rebuilt";
            } else {
                long caughtUp = System.nanoTime();
                settle(task);
                warmTakeovers.incrementAndGet();
                how = String.format("from the warm standby: %d side-topic records caught up in %d ms, settle %d ms", tail,
                        ms(caughtUp - fenced), ms(System.nanoTime() - caughtUp));
            }
        } else {
            rebuild(task);
            how = "rebuilt";
        }
        long rebuilt = System.nanoTime();
        seekToCommitted(c, n);
        task.ready = true;
        long done = System.nanoTime();
        LOG.infof("decider for partition %d of %s (transactional.id %s%d): took it %d ms after its assignment in %d ms "
                        + "(fence: initTransactions done %d ms after the assignment, waited for %d; state %d (%s); seek %d)", n,
                settings.groupTopics(), settings.transactionalIdPrefix(), n, ms(start - task.assignedAt), ms(done - start),
                f.millis(), ms(fenced - start), ms(rebuilt - fenced), how, ms(done - rebuilt));
    }

    /**
     * Starts fencing partition {@code n}'s previous owner in the background: {@code initTransactions()} on a producer
     * with the partition's transactional id, the one its warm standby has connected already if there is one.
     */
    private CompletableFuture<Fenced> startFencing(int n) {
        long start = System.nanoTime();
        Task standby = standbys.get(n);
        CompletableFuture<KafkaProducer<String, byte[]>> producer = standby != null && standby.connecting != null
                ? standby.connecting : CompletableFuture.supplyAsync(() -> transactionalProducer(n, false), fencers);
        if (standby != null) standby.connecting = null;
        return producer.thenApplyAsync(p -> {
            try {
                p.initTransactions();
            } catch (RuntimeException e) {
                closeQuietly(p);
                throw e;
            }
            return new Fenced(p, ms(System.nanoTime() - start));
        }, fencers);
    }

    /**
     * A producer with partition {@code n}'s transactional id, not initialised (so it fences nobody); {@code connect}:
     * with its connections to the broker open and authenticated already (metadata of two topics), so that a takeover
     * pays only the {@code initTransactions()} round trips.
     */
    private KafkaProducer<String, byte[]> transactionalProducer(int n, boolean connect) {
        Properties props = transactionalProducerProps(settings.clientProps(), settings.transactionalIdPrefix() + n,
                largestBatchAccepted == 0 ? Integer.MAX_VALUE : largestBatchAccepted);
        KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer());
        if (connect) {
            try {
                // Two metadata requests: the first goes to the bootstrap address, the next to a broker by its node id,
                // as the coordinator's requests will (on one broker, that very connection). A failure only costs time later.
                producer.partitionsFor(settings.groupTopics().get(0));
                producer.partitionsFor(settings.deadLetterTopic());
            } catch (RuntimeException e) {
                LOG.debugf(e, "warming the producer of partition %d", n);
            }
        }
        return producer;
    }

    /**
     * The smallest {@code max.message.bytes} of the written topics, or 0 when there are none or it cannot be read (the
     * right to describe their configurations missing, the broker not answering): then the producers batch as
     * configured, and a topic below the batch size stalls its transactions (KAFKA-8350, {@link #TRANSACTION_BATCH_BYTES}).
     */
    private int readLargestBatchAccepted() {
        if (settings.writtenTopics().isEmpty()) return 0;
        try {
            int largest = Topics.largestBatchAccepted(settings.clientProps(), settings.writtenTopics(), LIMITS_TIMEOUT_MS);
            int configured = configuredBatchSize(settings.clientProps());
            if (largest < configured) {
                LOG.infof("producer batches kept to %d bytes rather than %d: the largest record batch one of %s accepts"
                        + " (max.message.bytes)", largest, configured, new TreeSet<>(settings.writtenTopics()));
            }
            return largest;
        } catch (RuntimeException e) {
            LOG.warnf("cannot read the record-batch limits of the topics written (%s); batching as configured, and a topic"
                    + " that accepts less than a batch stalls its transactions", e.getMessage());
            return 0;
        }
    }

    /** The batch size the client settings choose, else {@link #TRANSACTION_BATCH_BYTES}. */
    private static int configuredBatchSize(Properties clientProps) {
        Object chosen = clientProps.get(ProducerConfig.BATCH_SIZE_CONFIG);
        return chosen == null ? TRANSACTION_BATCH_BYTES : Integer.parseInt(String.valueOf(chosen));
    }

    /** {@link #transactionalProducerProps(Properties, String, int)} for topics that take any batch. */
    static Properties transactionalProducerProps(Properties clientProps, String transactionalId) {
        return transactionalProducerProps(clientProps, transactionalId, Integer.MAX_VALUE);
    }

    /**
     * The settings of a task's transactional producer: the client settings, its transactional id, and what it needs;
     * its batches no larger than {@code largestBatchAccepted}, the smallest limit of the topics it writes.
     */
    static Properties transactionalProducerProps(Properties clientProps, String transactionalId, int largestBatchAccepted) {
        Properties props = new Properties();
        props.putAll(clientProps);
        props.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        // The coordinator answers a transaction's first request with CONCURRENT_TRANSACTIONS until the previous
        // commit's markers are written (a few ms after commitTransaction() returns), and the producer's sender thread
        // sleeps retry.backoff.ms before asking again: with Kafka's 100 ms, a quiet partition's commits often waited a
        // whole backoff (docs/benchmarks.md, "Decider settings and their measured effect").
        props.putIfAbsent(ProducerConfig.RETRY_BACKOFF_MS_CONFIG, TRANSACTION_RETRY_BACKOFF_MS);
        props.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, TRANSACTION_LINGER_MS);
        props.putIfAbsent(ProducerConfig.BATCH_SIZE_CONFIG, TRANSACTION_BATCH_BYTES);
        if (configuredBatchSize(clientProps) > largestBatchAccepted) {
            props.put(ProducerConfig.BATCH_SIZE_CONFIG, largestBatchAccepted);
        }
        return props;
    }

    /**
     * Drops a fencing in progress (the partition was revoked before it was taken): its producer is closed once fenced.
     * The {@code initTransactions()} in flight is not called back and may fence the partition's next owner (known gap
     * (2) in the class comment).
     */
    private void cancelFencing(int n) {
        CompletableFuture<Fenced> f = fencing.remove(n);
        if (f != null) f.whenComplete((done, e) -> {
            if (done != null) closeQuietly(done.producer());
        });
    }

    private static long ms(long nanos) {
        return nanos / 1_000_000;
    }

    /**
     * One step of the warm standbys, between polls: a partition number that has neither an owner here nor a
     * standby gets one (at most one new per turn; it starts from the beginning of the side topics without
     * waiting), and every standby applies what its reader has fetched since the last turn.
     */
    private void keepStandbysWarm() {
        if (standbysUnsupported) return;
        for (int n = 0; n < inputPartitions; n++) {
            if (tasks.containsKey(n) || pending.contains(n) || standbys.containsKey(n)) continue;
            Task standby = new Task(new PartitionScope(n, inputPartitions));
            if (!(standby.processor instanceof Standby)) {
                standbysUnsupported = true;
                return;
            }
            if (!openSide(standby, true)) {
                // A side topic without partitions yet (just created, metadata not propagated): a standby that does not
                // read it would take over without its records. Tried again at a later turn.
                standby.processor.revoked();
                closeQuietly(standby.side);
                break;
            }
            int number = n;
            standby.connecting = CompletableFuture.supplyAsync(() -> transactionalProducer(number, true), fencers);
            standbys.put(n, standby);
            break;
        }
        for (Task standby : standbys.values()) {
            boolean ownSourcesAtEnd = ((Standby) standby.processor).follow(false);
            for (ConsumerRecord<String, byte[]> r : standby.side.poll(Duration.ZERO)) {
                restore(standby, r);
                standby.followed++;
            }
            if (!standby.caughtUp && ownSourcesAtEnd
                    && standby.side.assignment().stream().allMatch(tp -> standby.side.currentLag(tp).orElse(1) == 0)) {
                standby.caughtUp = true;
                LOG.infof("warm standby of partition %d caught up (%d side-topic records)", standby.scope.partition(), standby.followed);
            }
        }
    }

    /**
     * Positions the group consumer on partition number {@code n} of every group topic at its committed offset. With
     * {@link Settings#offsetsTopic}, that is the later of the task's changelog's and the group's: the changelog's is
     * written in the task's transactions; the group's is a copy committed after them (never ahead), or, on a
     * changelog without offsets yet (written by a version that committed the offsets to the group), the only one.
     * A partition committed nowhere is read from its beginning.
     */
    private void seekToCommitted(KafkaConsumer<String, byte[]> c, int n) {
        dropHeld(n);
        Set<TopicPartition> mine = new HashSet<>();
        for (TopicPartition tp : c.assignment()) if (tp.partition() == n) mine.add(tp);
        if (mine.isEmpty()) return;
        Map<TopicPartition, OffsetAndMetadata> committed = c.committed(mine);
        Task task = tasks.get(n);
        for (TopicPartition tp : mine) {
            OffsetAndMetadata inGroup = committed.get(tp);
            Long inChangelog = task == null || settings.offsetsTopic() == null ? null : task.inputOffsets.get(tp);
            long at = Math.max(inGroup == null ? 0L : inGroup.offset(), inChangelog == null ? 0L : inChangelog);
            if (inGroup == null && inChangelog == null) c.seekToBeginning(List.of(tp));
            else c.seek(tp, at);
            processed.put(key(tp), at);
        }
    }

    /**
     * Whether {@code r} is an input-offsets record of the task's changelog ({@link Settings#offsetsTopic}): kept, when
     * it is about the task's partition number, for {@link #seekToCommitted}; never given to the processor.
     */
    private boolean tookOffsets(Task task, ConsumerRecord<String, byte[]> r) {
        if (settings.offsetsTopic() == null || !r.topic().equals(settings.offsetsTopic()) || !InputOffsets.isKey(r.key())) {
            return false;
        }
        if (r.value() == null) {
            // Removed: the partition resumes at the group's offset, as on a changelog written before offsets were kept in it.
            task.inputOffsets.keySet().removeIf(tp -> new InputOffsets(tp.topic(), tp.partition(), 0).key().equals(r.key()));
            return true;
        }
        try {
            InputOffsets at = EventCodec.read(r.value(), InputOffsets.class);
            if (at.partition() == task.scope.partition()) {
                task.inputOffsets.put(new TopicPartition(at.topic(), at.partition()), at.nextOffset());
            }
        } catch (RuntimeException e) {
            // Not one this loop wrote: the partition resumes at the group's offset, as before any was written.
            LOG.errorf("partition %d: %s is not an offsets record (%s); it is skipped", task.scope.partition(), coordinates(r), e);
        }
        return true;
    }

    /** Builds the task's state from the beginning of its side topics (and whatever its processor's rebuild reads), then settles. */
    private void rebuild(Task task) {
        long start = System.nanoTime();
        openSide(task, false);
        long opened = System.nanoTime();
        int sideRecords = readSideToEnd(task);
        long sideDone = System.nanoTime();
        settle(task);
        LOG.infof("partition %d rebuilt: processor %d ms, side topics %d ms (%d records), settle %d ms", task.scope.partition(),
                ms(opened - start), ms(sideDone - opened), sideRecords, ms(System.nanoTime() - sideDone));
    }

    /**
     * The task's processor drops its state and rebuilds what does not come from the side topics (a standby: opens
     * it to follow, without reading); a new side reader is positioned at the beginning of the side topics (a
     * partitioned one at the task's partition only). Answers whether every side topic was found with partitions.
     */
    private boolean openSide(Task task, boolean standby) {
        task.processor.revoked();
        task.inputOffsets.clear();
        if (standby) ((Standby) task.processor).startFollowing(settings.clientProps(), settings.rebuildTimeout());
        else task.processor.rebuild(settings.clientProps(), settings.rebuildTimeout());
        if (task.side != null) task.side.close();
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        props.remove(ConsumerConfig.GROUP_ID_CONFIG);
        task.side = new KafkaConsumer<>(props, new StringDeserializer(), new ByteArrayDeserializer());
        List<TopicPartition> parts = new ArrayList<>();
        boolean everyTopic = true;
        for (String topic : settings.sideTopics()) {
            List<PartitionInfo> infos = task.side.partitionsFor(topic, settings.rebuildTimeout());
            if (infos == null || infos.isEmpty()) {
                everyTopic = false;
                continue;
            }
            boolean split = settings.partitionedSideTopics().contains(topic) && infos.size() == task.scope.partitions();
            infos.stream().filter(i -> !split || i.partition() == task.scope.partition())
                    .forEach(i -> parts.add(new TopicPartition(i.topic(), i.partition())));
        }
        task.side.assign(parts);
        task.side.seekToBeginning(parts);
        return everyTopic;
    }

    /**
     * Reads the side topics from where the task's reader is up to their end offsets of now (read_committed: the
     * last stable offset), restoring the processor; answers how many records it read.
     */
    private int readSideToEnd(Task task) {
        Set<TopicPartition> parts = task.side.assignment();
        Map<TopicPartition, Long> end = task.side.endOffsets(parts, settings.rebuildTimeout());
        long deadline = System.nanoTime() + settings.rebuildTimeout().toNanos();
        int read = 0;
        while (parts.stream().anyMatch(tp -> task.side.position(tp) < end.get(tp))) {
            if (System.nanoTime() > deadline) throw new KafkaException("side topics not read to their end in time");
            for (ConsumerRecord<String, byte[]> r : task.side.poll(Duration.ofMillis(100))) {
                read++;
                restore(task, r);
            }
        }
        return read;
    }

    /**
     * One side record into the task's state (a rebuild, a takeover, a standby's step), unless it is poisoned. A
     * processor that throws on it does not end the loop thread: the record is poisoned (skipped by the task's later
     * rebuilds) and dead-lettered with the failure as its reason in the task's settle, like a group record whose
     * processing fails twice; the state goes on without it.
     */
    private void restore(Task task, ConsumerRecord<String, byte[]> r) {
        if (tookOffsets(task, r)) return;
        String at = coordinates(r);
        if (task.poison.containsKey(at)) return;
        try {
            task.processor.restoreSide(r, task.processor.decode(r));
        } catch (RuntimeException e) {
            LOG.errorf(e, "partition %d: restoring %s failed; it is left out of the state and dead-lettered", task.scope.partition(), at);
            task.poison.put(at, Poison.refused("restoring the state failed: " + e));
            task.unrestorable.add(r);
        }
    }

    /**
     * The state is complete: the processor makes the decisions it calls for, in a first transaction; from now on
     * the side reader skips the processor's own output.
     */
    private void settle(Task task) {
        task.producer.beginTransaction();
        Outbox out = task.outbox();
        for (ConsumerRecord<String, byte[]> r : task.unrestorable) {
            String reason = task.poison.get(coordinates(r)).reason();
            out.deadLetter(r, reason);
            out.afterCommit(() -> task.processor.refusedAfterFailure(r, reason));
        }
        task.processor.settle(out);
        out.flush();
        task.producer.commitTransaction();
        task.unrestorable.clear();
        out.afterCommitActions().forEach(Runnable::run);
        Set<String> own = task.processor.ownSideTopics();
        if (!own.isEmpty()) task.side.assign(task.side.assignment().stream().filter(tp -> !own.contains(tp.topic())).toList());
    }

    private static void closeQuietly(KafkaConsumer<?, ?> consumer) {
        if (consumer != null) quietly(() -> consumer.close(Duration.ofSeconds(1)));
    }

    private static void closeQuietly(KafkaProducer<?, ?> producer) {
        if (producer != null) quietly(() -> producer.close(Duration.ofSeconds(2)));
    }

    /** A client being dropped: a failure to close it changes nothing for the loop. */
    private static void quietly(Runnable close) {
        try {
            close.run();
        } catch (RuntimeException e) {
            LOG.debug("closing a Kafka client", e);
        }
    }

    /**
     * One task's batch of a loop turn, applied in its open transaction and waiting for its commit: its offsets to
     * commit with it, and the failure of its commit (null while none).
     */
    private static final class Batch {
        final Task task;
        final Outbox out;
        final Map<TopicPartition, OffsetAndMetadata> offsets;
        final int records;
        RuntimeException failure;

        Batch(Task task, Outbox out, Map<TopicPartition, OffsetAndMetadata> offsets, int records) {
            this.task = task;
            this.out = out;
            this.offsets = offsets;
            this.records = records;
        }

        /**
         * Commits the transaction with the offsets: committed to the group with it, or (group null) already in it as
         * changelog records ({@link Settings#offsetsTopic}). A failure is kept for the loop thread to handle.
         */
        void commit(org.apache.kafka.clients.consumer.ConsumerGroupMetadata group) {
            try {
                if (group != null) task.producer.sendOffsetsToTransaction(offsets, group);
                task.producer.commitTransaction();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
    }

    /**
     * Commits the turn's batches. Each commit waits for the broker (the offsets, then the end of the transaction: round
     * trips, several times the decision's CPU); the batches of different tasks are independent (their own producers,
     * transactions and state), so several are committed at once, each on a thread of {@link #committers}, and the turn
     * waits once rather than once per task. Failures are then handled here, on the loop thread, task by task, as
     * a failure while applying is; a fenced producer ends the session once the others are handled.
     */
    private void commitAll(KafkaConsumer<String, byte[]> c, List<Batch> batches) {
        if (batches.isEmpty()) return;
        // The consumer is not thread-safe: its group metadata is read here, on the loop thread.
        org.apache.kafka.clients.consumer.ConsumerGroupMetadata group = settings.offsetsTopic() == null ? c.groupMetadata() : null;
        if (batches.size() == 1) {
            batches.get(0).commit(group);
        } else {
            CompletableFuture.allOf(batches.stream().map(b -> CompletableFuture.runAsync(() -> b.commit(group), committers))
                    .toArray(CompletableFuture[]::new)).join();
        }
        RuntimeException fenced = null;
        for (Batch b : batches) {
            if (b.failure instanceof ProducerFencedException || b.failure instanceof InvalidProducerEpochException) {
                fenced = b.failure;
            } else if (b.failure != null) {
                recover(c, b.task, b.out, null, b.failure);
            } else {
                committed(c, b);
            }
        }
        if (fenced != null) throw fenced;
    }

    /**
     * Tells the group the offsets the changelog recorded since it was last told, once {@link #GROUP_COPY_SPACING} has
     * passed since then (every turn asks, so the last ones follow within that once the loop is quiet), without waiting.
     * Offsets of partitions revoked since are left out: they are the next owner's to tell.
     */
    private void tellGroup(KafkaConsumer<String, byte[]> c) {
        if (groupCopy.isEmpty() || System.nanoTime() - groupCopySentAt < GROUP_COPY_SPACING.toNanos()) return;
        groupCopy.keySet().retainAll(c.assignment());
        if (!groupCopy.isEmpty()) {
            c.commitAsync(Map.copyOf(groupCopy), (offsets, e) -> {
                if (e != null) LOG.debugf("the group's copy of the offsets %s was not committed (%s)", offsets, e);
            });
        }
        groupCopy.clear();
        groupCopySentAt = System.nanoTime();
    }

    /**
     * After a batch's commit: what its records asked to do once committed, and the takeover's first-batch timing. With
     * the offsets in the changelog, the task remembers them and the group is told too, later and without waiting
     * ({@link #tellGroup}): what the group holds is then only for those who read it (consumer-lag tools, a decider
     * without offsets in its changelog yet), never ahead of the changelog, so a resume takes the later of the two
     * ({@link #seekToCommitted}).
     */
    private void committed(KafkaConsumer<String, byte[]> c, Batch b) {
        b.out.afterCommitActions().forEach(Runnable::run);
        Task task = b.task;
        if (settings.offsetsTopic() != null && !b.offsets.isEmpty()) {
            b.offsets.forEach((tp, o) -> task.inputOffsets.put(tp, o.offset()));
            groupCopy.putAll(b.offsets);
        }
        if (task.assignedAt != 0 && b.records > 0) {
            LOG.infof("partition %d: first batch (%d records) committed %d ms after its assignment", task.scope.partition(),
                    b.records, ms(System.nanoTime() - task.assignedAt));
            task.assignedAt = 0;
        }
    }

    /**
     * Applies a batch in a new transaction of its task (side records first, then its own, then the processor's end of
     * batch) and answers it, ready to commit; null when applying failed (the transaction was aborted and the task's
     * state rebuilt, see {@link #recover}).
     */
    private Batch apply(KafkaConsumer<String, byte[]> c, Task task, List<ConsumerRecord<String, byte[]>> records,
                        List<ConsumerRecord<String, byte[]>> sideRecords) {
        ConsumerRecord<String, byte[]> current = null;
        task.producer.beginTransaction();
        Outbox out = task.outbox();
        try {
            for (ConsumerRecord<String, byte[]> r : sideRecords) {
                current = r;
                out.handling(r);
                applyOrRefuse(task, r, out);
            }
            Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
            for (ConsumerRecord<String, byte[]> r : records) {
                current = r;
                out.handling(r);
                routeOrApply(task, r, out);
                offsets.put(new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
            }
            current = null;
            out.handling(null);
            task.processor.afterBatch(out);
            if (settings.offsetsTopic() != null) {
                offsets.forEach((tp, o) -> {
                    InputOffsets at = new InputOffsets(tp.topic(), tp.partition(), o.offset());
                    out.emit(settings.offsetsTopic(), at.key(), at, InputOffsets.TYPE, at.key() + "@" + at.nextOffset());
                });
            }
            out.flush();
            return new Batch(task, out, offsets, records.size());
        } catch (ProducerFencedException | InvalidProducerEpochException e) {
            throw e;
        } catch (RuntimeException e) {
            recover(c, task, out, current, e);
            return null;
        }
    }

    /**
     * A batch failed while being applied ({@code current}: the record being handled, null after the last one) or
     * committed: its transaction is aborted, the records at fault are marked for the dead letters, and the task's
     * state is rebuilt and its partition read again from its committed offsets.
     */
    private void recover(KafkaConsumer<String, byte[]> c, Task task, Outbox out, ConsumerRecord<String, byte[]> current,
                         RuntimeException e) {
        LOG.warnf(e, "transaction of partition %d aborted%s", task.scope.partition(),
                current == null ? "" : " at " + coordinates(current));
        task.producer.abortTransaction();
        // Complete now: aborting waited for every send of the transaction, so their callbacks have run.
        Map<ConsumerRecord<String, byte[]>, Exception> lost = out.failedDeadLetters();
        Map<Optional<ConsumerRecord<String, byte[]>>, Outbox.RefusedOutput> refused = out.refusedOutputs();
        if (!lost.isEmpty()) {
            // Not the current record's fault: its processing went well, the dead-letter topic refused a write.
            // Nothing is committed, so the refused records come again after the rebuild; a pause keeps a
            // topic that stays unwritable from turning the loop into a busy retry.
            lost.forEach((r, cause) -> {
                LOG.errorf("cannot write the dead letter of %s to %s (%s); its offset is not committed and it will be "
                        + "processed again", coordinates(r), settings.deadLetterTopic(), cause.toString());
                task.processor.deadLetterWriteFailed(r, cause);
            });
            pause(DEAD_LETTER_RETRY_PAUSE);
        } else if (!refused.isEmpty()) {
            // Kafka refused what a record emitted (too large, a topic it may not write): that record is at fault,
            // not the one being handled when the transaction broke (a send after the refusal fails too), and a
            // retry would be refused again. An output of no input record (a batch's decision cycle, a settle)
            // has nobody to blame: the batch is retried after a pause, and the partition stalls until fixed.
            refused.forEach((input, output) -> {
                if (input.isPresent()) {
                    task.poison.merge(coordinates(input.get()), Poison.retryOnce("processing failed: " + output), (a, b) -> a);
                } else {
                    LOG.errorf("partition %d: %s, emitted by no input record; the batch is retried", task.scope.partition(), output);
                }
            });
            if (refused.keySet().stream().anyMatch(Optional::isEmpty)) pause(DEAD_LETTER_RETRY_PAUSE);
        } else if (current != null) {
            // Retried once after the rebuild below; dead-lettered the second time.
            task.poison.merge(coordinates(current), Poison.retryOnce("processing failed: " + e), (a, b) -> a);
        }
        task.poison.replaceAll((k, v) -> v.retried());
        rebuild(task);
        seekToCommitted(c, task.scope.partition());
    }

    /**
     * A record on its cluster's partition is applied; one on another is forwarded there (once: copies are applied). The
     * record is decoded once, and the processor routes and applies that one value. A record poisoned for refusal is
     * refused without being decoded (decoding may be what failed); one marked for its retry is applied where it is.
     */
    private void routeOrApply(Task task, ConsumerRecord<String, byte[]> r, Outbox out) {
        if (refusedAsPoison(task, r, out)) return;
        Object input = task.processor.decode(r);
        if (r.headers().lastHeader(FORWARDED_HEADER) != null || task.poison.containsKey(coordinates(r))) {
            task.processor.apply(r, input, out);
            return;
        }
        // A topic subscribed by pattern (a team's submission topic) is counted when first seen.
        int count = partitionCounts.computeIfAbsent(r.topic(), t -> task.producer.partitionsFor(t).size());
        int home = count == 1 ? r.partition() : task.processor.home(r, input, count);
        if (home == r.partition()) {
            task.processor.apply(r, input, out);
            return;
        }
        for (int p = 0; p < count; p++) {
            if (p == r.partition() || (home != EVERY_PARTITION && p != home)) continue;
            RecordHeaders headers = new RecordHeaders(r.headers().toArray());
            headers.add(FORWARDED_HEADER, coordinates(r).getBytes(StandardCharsets.UTF_8));
            task.producer.send(new ProducerRecord<>(r.topic(), p, r.key(), r.value(), headers));
        }
        if (home == EVERY_PARTITION) task.processor.apply(r, input, out);
    }

    /**
     * Waits until {@code deadline} ({@link System#nanoTime}) or until the loop is closed; true when it waited. Parked
     * in steps of at most 10 ms, so that a close is seen within that.
     */
    private boolean waitUntil(long deadline) {
        boolean waited = false;
        for (long left; running.get() && (left = deadline - System.nanoTime()) > 0; waited = true) {
            LockSupport.parkNanos(Math.min(left, PAUSE_STEP_NANOS));
        }
        return waited;
    }

    private void pause(Duration d) {
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A side record applied while the task decides: decoded once, unless it is refused as poison. */
    private void applyOrRefuse(Task task, ConsumerRecord<String, byte[]> r, Outbox out) {
        if (tookOffsets(task, r) || refusedAsPoison(task, r, out)) return;
        task.processor.apply(r, task.processor.decode(r), out);
    }

    /** A record whose handling failed twice is refused: dead-lettered with the first failure as its reason. */
    private boolean refusedAsPoison(Task task, ConsumerRecord<String, byte[]> r, Outbox out) {
        Poison poisoned = task.poison.get(coordinates(r));
        if (poisoned == null || !poisoned.refuse()) return false;
        out.deadLetter(r, poisoned.reason());
        out.afterCommit(() -> task.processor.refusedAfterFailure(r, poisoned.reason()));
        return true;
    }

    /** This instance no longer owns partition {@code n}: its processor drops the state, its clients close. */
    private void drop(int n) {
        pending.remove(n);
        assignedAt.remove(n);
        cancelFencing(n);
        dropHeld(n);
        Task task = tasks.remove(n);
        if (task == null) return;
        task.ready = false;
        task.processor.revoked();
        closeQuietly(task.side);
        closeQuietly(task.producer);
        processed.keySet().removeIf(k -> k.endsWith("-" + n) && settings.groupTopics().stream().anyMatch(t -> k.equals(t + "-" + n)));
        // Not told to the group now: the next owner tells it its own, and ours must not follow and set it back.
        groupCopy.keySet().removeIf(tp -> tp.partition() == n);
        LOG.infof("no longer decides for partition %d", n);
    }

    private static String key(TopicPartition tp) {
        return tp.topic() + "-" + tp.partition();
    }

    private static String coordinates(ConsumerRecord<?, ?> r) {
        return r.topic() + "-" + r.partition() + "@" + r.offset();
    }

    /** Stops the loop; the thread leaves the group and closes its clients. */
    @Override
    public void close() {
        running.set(false);
        fencers.shutdown();
        committers.shutdown();
        KafkaConsumer<String, byte[]> c = consumer;
        if (c != null) c.wakeup();
    }
}
