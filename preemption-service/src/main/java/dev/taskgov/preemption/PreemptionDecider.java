package dev.taskgov.preemption;

import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.Decider;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.TransactionalLoop;


import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;

/**
 * One preemption decider instance: the transactional loop on its own thread with one
 * {@link PreemptionProcessor} per owned partition of the requests topic (the loop's group topic: a partition
 * holds a set of clusters and has one owner, requests handled in order); the changelog is its side topic, split
 * like the requests. Plain Java: the Quarkus bean {@code PreemptionRuntime} owns one; tests start several
 * against one broker, or in child processes.
 */
public final class PreemptionDecider extends Decider {

    /**
     * @param clientProps           Kafka client settings (bootstrap servers)
     * @param groupId               the deciders' consumer group
     * @param transactionalIdPrefix a partition's decider uses this plus the partition number, so the next owner
     *                              of the partition fences it
     * @param source                CloudEvents ce_source
     * @param membership            session timeout, heartbeat and static identity in the group (failover speed)
     * @param turns                 the loop's second poll and commit interval (how large its transactions are)
     */
    public record Settings(Properties clientProps, PreemptionProcessor.Settings processor, String groupId,
                           String transactionalIdPrefix, String source, Duration pollTimeout, Duration rebuildTimeout,
                           boolean createTopics, TransactionalLoop.Membership membership, TransactionalLoop.Turns turns) {

        /** The loop's default turns (no commit interval). */
        public Settings(Properties clientProps, PreemptionProcessor.Settings processor, String groupId,
                        String transactionalIdPrefix, String source, Duration pollTimeout, Duration rebuildTimeout,
                        boolean createTopics, TransactionalLoop.Membership membership) {
            this(clientProps, processor, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, TransactionalLoop.Turns.DEFAULTS);
        }

        /** Kafka's default membership (a dead instance's clusters move after 45 s). */
        public Settings(Properties clientProps, PreemptionProcessor.Settings processor, String groupId,
                        String transactionalIdPrefix, String source, Duration pollTimeout, Duration rebuildTimeout,
                        boolean createTopics) {
            this(clientProps, processor, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    TransactionalLoop.Membership.KAFKA_DEFAULTS);
        }
    }

    private final Settings settings;

    public PreemptionDecider(Settings settings, Clock clock, PreemptionObserver observer) {
        super(loop(settings, clock, observer), "preemption-decider");
        this.settings = settings;
    }

    private static TransactionalLoop loop(Settings settings, Clock clock, PreemptionObserver observer) {
        DeciderTopics t = settings.processor().topics();
        return new TransactionalLoop(new TransactionalLoop.Settings(settings.clientProps(), settings.groupId(),
                List.of(t.preemptionRequested()), List.of(t.changelog()), Set.of(t.changelog()), settings.transactionalIdPrefix(),
                settings.source(), t.deadLetter(), settings.pollTimeout(), settings.rebuildTimeout(), settings.membership(), null,
                settings.turns()).withOffsetsIn(t.changelog())
                .withWrittenTopics(writtenTopics(t)),
                scope -> new PreemptionProcessor(settings.processor(), clock, observer, scope), clock);
    }

    /** The topics the decider's transactions write: the preemptions, the grace periods' statuses, its changelog, dead letters. */
    static Set<String> writtenTopics(DeciderTopics t) {
        return Set.of(t.preempted(), t.status(), t.changelog(), t.deadLetter());
    }

    /** Creates missing topics (when configured) and starts the loop thread. */
    public void start() {
        if (settings.createTopics()) ensureTopics(settings.clientProps(), settings.processor().topics());
        startLoop(() -> { });
    }

    /**
     * Creates the topics preemption uses when missing: one partition per cluster, compacted where latest-value. Not
     * gang admission's readiness topic: only admission-service reads it, and preemption-service's login may not even
     * see it (so it would try, and be refused, to create it).
     */
    public static void ensureTopics(Properties clientProps, DeciderTopics t) {
        Topics.ensure(clientProps, t.specs(TopicCatalog.PREEMPTION_CHANGELOG).stream()
                .filter(spec -> !spec.name().equals(t.podsReady())).toList());
    }

    /** The processors of the partitions this instance owns, by partition number. */
    public Map<Integer, PreemptionProcessor> processorsByPartition() {
        Map<Integer, PreemptionProcessor> out = new TreeMap<>();
        loop.processors().forEach((n, p) -> out.put(n, (PreemptionProcessor) p));
        return out;
    }

    /** The processor of the unnamed cluster (a deployment whose records name none), or null when another instance owns it. */
    public PreemptionProcessor processor() {
        return processorsByPartition().values().stream().filter(PreemptionProcessor::decidesDefaultCluster).findFirst()
                .orElse(null);
    }

    /** The loop, for tests that look at how it holds its partitions (warm standbys, takeovers, partition count). */
    TransactionalLoop loop() {
        return loop;
    }

    /** True while this instance owns partitions of the requests and has rebuilt the view of each. */
    public boolean isDecider() {
        return loop.isDecider() && processorsByPartition().values().stream().allMatch(PreemptionProcessor::isReady);
    }
}
