package dev.taskgov.admission;

import dev.taskgov.core.cluster.ClusterArn;
import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.core.model.FinishedRetention;
import dev.taskgov.service.support.Decider;
import dev.taskgov.service.support.DeciderTopics;
import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.TransactionalLoop;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;

/**
 * One admission decider instance: the transactional loop on its own thread, with one
 * {@link AdmissionProcessor} per owned partition of the inputs (the clusters of that partition). Instances
 * sharing the group split the partitions; plain Java (the Quarkus bean {@code AdmissionRuntime} owns one;
 * tests start several against one broker, or in child processes, to exercise takeover and failover).
 */
public final class AdmissionDecider extends Decider {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(AdmissionDecider.class);

    /**
     * @param clientProps           Kafka client settings (bootstrap servers)
     * @param topics                topic names
     * @param groupId               the deciders' consumer group
     * @param transactionalIdPrefix a partition's decider uses this plus the partition number, so the next owner
     *                              of the partition fences it
     * @param source                CloudEvents ce_source
     * @param membership            session timeout, heartbeat and static identity in the group (failover speed)
     * @param turns                 the loop's second poll and commit interval (how large its transactions are)
     * @param auditTopic            where the decider records the submissions and finishes it reads from Kafka, or
     *                              null for none (an isolated test cluster has no audit topic)
     * @param statusRefresh         how often a workload's figures alone (same state and reason) may be written to the
     *                              status topic and the changelog; zero writes every change
     * @param waitForPodsReady      gang admission's setting of each cluster ({@link WaitForPodsReadyByCluster#OFF}: off)
     * @param statusFiguresPerSecond how many records of figures alone each partition's decider writes per second at
     *                              most, over all its workloads; zero or less: no bound
     */
    public record Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                           String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                           TransactionalLoop.Membership membership, TransactionalLoop.Turns turns, String auditTopic,
                           Duration statusRefresh, WaitForPodsReadyByCluster waitForPodsReady, int statusFiguresPerSecond) {

        /** The default bound on records of figures alone ({@link WorkloadWrites#DEFAULT_FIGURES_PER_SECOND}). */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                        TransactionalLoop.Membership membership, TransactionalLoop.Turns turns, String auditTopic,
                        Duration statusRefresh, WaitForPodsReadyByCluster waitForPodsReady) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, turns, auditTopic, statusRefresh, waitForPodsReady, WorkloadWrites.DEFAULT_FIGURES_PER_SECOND);
        }

        /** The same settings with this bound on records of figures alone per second (zero or less: none). */
        public Settings withStatusFiguresPerSecond(int perSecond) {
            return new Settings(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout,
                    createTopics, membership, turns, auditTopic, statusRefresh, waitForPodsReady, perSecond);
        }

        /** Gang admission off in every cluster. */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                        TransactionalLoop.Membership membership, TransactionalLoop.Turns turns, String auditTopic,
                        Duration statusRefresh) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, turns, auditTopic, statusRefresh, WaitForPodsReadyByCluster.OFF);
        }

        /** The same settings with this status refresh (zero: every change of the figures written at once). */
        public Settings withStatusRefresh(Duration refresh) {
            return new Settings(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout,
                    createTopics, membership, turns, auditTopic, refresh, waitForPodsReady, statusFiguresPerSecond);
        }

        /** The same settings with gang admission's setting of each cluster. */
        public Settings withWaitForPodsReady(WaitForPodsReadyByCluster setting) {
            return new Settings(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout,
                    createTopics, membership, turns, auditTopic, statusRefresh, setting, statusFiguresPerSecond);
        }

        /** The default status refresh ({@link AdmissionProcessor#DEFAULT_STATUS_REFRESH}). */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                        TransactionalLoop.Membership membership, TransactionalLoop.Turns turns, String auditTopic) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, turns, auditTopic, AdmissionProcessor.DEFAULT_STATUS_REFRESH);
        }

        /** A decider that records nothing in the audit trail. */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                        TransactionalLoop.Membership membership, TransactionalLoop.Turns turns) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, turns, null);
        }

        /** The loop's default turns (no commit interval). */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics,
                        TransactionalLoop.Membership membership) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    membership, TransactionalLoop.Turns.DEFAULTS);
        }

        /** Kafka's default membership (a dead instance's clusters move after 45 s). */
        public Settings(Properties clientProps, DeciderTopics topics, String groupId, String transactionalIdPrefix,
                        String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics) {
            this(clientProps, topics, groupId, transactionalIdPrefix, source, pollTimeout, rebuildTimeout, createTopics,
                    TransactionalLoop.Membership.KAFKA_DEFAULTS);
        }
    }

    private final Settings settings;

    /** A decider that keeps ended workloads for the default retention ({@link AdmissionProcessor#DEFAULT_RETENTION}). */
    public AdmissionDecider(Settings settings, Clock clock, AdmissionObserver observer) {
        this(settings, clock, observer, AdmissionProcessor.DEFAULT_RETENTION);
    }

    /**
     * @param clock     the decider's time: decisions' times and when an ended workload's retention elapses
     * @param retention how long a workload that ended is kept before it is forgotten
     */
    public AdmissionDecider(Settings settings, Clock clock, AdmissionObserver observer, FinishedRetention retention) {
        super(loop(settings, clock, observer, retention), "admission-decider");
        this.settings = settings;
    }

    private static TransactionalLoop loop(Settings settings, Clock clock, AdmissionObserver observer, FinishedRetention retention) {
        DeciderTopics t = settings.topics();
        return new TransactionalLoop(new TransactionalLoop.Settings(settings.clientProps(), settings.groupId(),
                List.of(t.submitted(), t.finished(), t.preempted(), t.podsReady()), List.of(t.changelog(), t.quota(), t.topology()),
                Set.of(t.changelog()),
                settings.transactionalIdPrefix(), settings.source(), t.deadLetter(), settings.pollTimeout(),
                settings.rebuildTimeout(), settings.membership(), KafkaAccess.teamTopics(t.submitted(), t.podsReady()), settings.turns())
                .withOffsetsIn(t.changelog())
                // Finishes and evictions free capacity: decided in short turns of their own, not behind a poll of a
                // backlog of submissions (docs/semantics.md, "Order of inputs").
                .withFirstTopics(Set.of(t.finished(), t.preempted()))
                .withWrittenTopics(writtenTopics(t, settings.auditTopic())),
                scope -> new AdmissionProcessor(t, clock, observer, scope, retention, settings.auditTopic())
                        .statusRefresh(settings.statusRefresh()).statusFiguresPerSecond(settings.statusFiguresPerSecond())
                        .waitForPodsReady(settings.waitForPodsReady()), clock);
    }

    /**
     * The topics the decider's transactions write: its decisions, statuses, requests, changelog, dead letters and audit
     * records, and the group topics a record is forwarded on to its cluster's partition. Not the teams' own topics
     * (forwarding writes those too): taskgov creates them with the broker's default limit.
     */
    static Set<String> writtenTopics(DeciderTopics t, String auditTopic) {
        Set<String> written = new TreeSet<>(List.of(t.admitted(), t.status(), t.preemptionRequested(),
                t.changelog(), t.deadLetter(), t.submitted(), t.finished(), t.podsReady()));
        if (auditTopic != null) written.add(auditTopic);
        return written;
    }

    /**
     * Starts the loop thread; missing topics are created first (when configured), on that thread,
     * so that an unreachable broker never blocks the application's startup.
     */
    public void start() {
        startLoop(() -> {
            if (settings.createTopics()) createTopicsWithRetry();
        });
    }

    private void createTopicsWithRetry() {
        for (int attempt = 1; ; attempt++) {
            try {
                ensureTopics(settings.clientProps(), settings.topics());
                return;
            } catch (RuntimeException e) {
                LOG.warnf("cannot create the admission topics yet (attempt %d): %s", attempt, e.getMessage());
                try {
                    Thread.sleep(Math.min(30_000, 1_000L * attempt));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    /**
     * Creates the topics admission uses when they are missing, as the catalog describes them (one partition
     * for the decider's inputs: one decider per cluster; compacted for the latest-value topics).
     */
    public static void ensureTopics(Properties clientProps, DeciderTopics t) {
        Topics.ensure(clientProps, t.specs(TopicCatalog.ADMISSION_CHANGELOG));
    }

    /**
     * The state deciding for {@code clusterArn} on this instance, once it is rebuilt; empty when another instance owns
     * the cluster's partition (or this one is still rebuilding it).
     */
    public Optional<AdmissionReads> readsFor(ClusterArn cluster) {
        return allReads().stream().filter(p -> p.owns(cluster)).findFirst();
    }

    /** The state of the unnamed cluster (a deployment whose records name none), or null when another instance owns it. */
    public AdmissionReads reads() {
        return readsFor(ClusterArn.UNNAMED).orElse(null);
    }

    /** The states of the partitions this instance decides for, rebuilt and ready. */
    public List<AdmissionReads> allReads() {
        return loop.processors().values().stream().map(p -> ((AdmissionProcessor) p).reads()).filter(AdmissionReads::isReady)
                .toList();
    }

    /** The partition numbers this instance keeps a warm standby of, ready to take over (it does not own them). */
    public Set<Integer> standbyPartitions() {
        return loop.standbyPartitions();
    }

    /** How many partitions this instance took over from its warm standby rather than rebuilding them. */
    public long warmTakeovers() {
        return loop.warmTakeovers();
    }

    /** How many partitions the inputs have (the unit of ownership). */
    public int inputPartitions() {
        return loop.inputPartitions();
    }

    /** True while this instance owns partitions of the inputs and has rebuilt the state of each. */
    public boolean isDecider() {
        return loop.isDecider() && allReads().size() == loop.processors().size();
    }

    /** True while this instance decides for the unnamed cluster (deployments whose records name none, and their tests). */
    public boolean decidesDefaultCluster() {
        return readsFor(ClusterArn.UNNAMED).isPresent();
    }
}
