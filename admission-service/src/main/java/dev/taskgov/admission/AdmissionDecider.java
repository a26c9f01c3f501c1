package dev.taskgov.admission;

import dev.taskgov.core.events.KafkaAccess;
import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.TransactionalLoop;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One admission decider: the transactional loop on its own thread, around an
 * {@link AdmissionProcessor}. Plain Java (the Quarkus bean {@code AdmissionRuntime} owns one; tests
 * start several against one broker to exercise takeover).
 */
public final class AdmissionDecider implements AutoCloseable {

    private static final org.jboss.logging.Logger LOG = org.jboss.logging.Logger.getLogger(AdmissionDecider.class);

    /**
     * @param clientProps     Kafka client settings (bootstrap servers)
     * @param topics          topic names
     * @param groupId         the deciders' consumer group
     * @param transactionalId stable per cluster
     * @param source          CloudEvents ce_source
     */
    public record Settings(Properties clientProps, AdmissionTopics topics, String groupId, String transactionalId,
                           String source, Duration pollTimeout, Duration rebuildTimeout, boolean createTopics) {
    }

    private final Settings settings;
    private final AdmissionProcessor processor;
    private final TransactionalLoop loop;
    private Thread thread;

    public AdmissionDecider(Settings settings, Clock clock, AdmissionObserver observer) {
        this.settings = settings;
        this.processor = new AdmissionProcessor(settings.topics(), clock, observer);
        AdmissionTopics t = settings.topics();
        this.loop = new TransactionalLoop(new TransactionalLoop.Settings(settings.clientProps(), settings.groupId(),
                List.of(t.submitted(), t.finished(), t.preempted()), List.of(t.quota(), t.topology()),
                settings.transactionalId(), settings.source(), t.deadLetter(), settings.pollTimeout(),
                settings.rebuildTimeout(), KafkaAccess.submissionTopics(t.submitted())), processor, clock);
    }

    /**
     * Starts the loop thread; missing topics are created first (when configured), on that thread,
     * so that an unreachable broker never blocks the application's startup.
     */
    public synchronized void start() {
        thread = new Thread(() -> {
            if (settings.createTopics()) createTopicsWithRetry();
            loop.run();
        }, "admission-decider");
        thread.setDaemon(true);
        thread.start();
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
    public static void ensureTopics(Properties clientProps, AdmissionTopics t) {
        Topics.ensure(clientProps, List.of(
                Topics.Spec.of(TopicCatalog.WORKLOAD_SUBMITTED, t.submitted()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_FINISHED, t.finished()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_PREEMPTED, t.preempted()),
                Topics.Spec.of(TopicCatalog.QUOTA, t.quota()),
                Topics.Spec.of(TopicCatalog.TOPOLOGY, t.topology()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_ADMITTED, t.admitted()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_STATUS, t.status()),
                Topics.Spec.of(TopicCatalog.PREEMPTION_REQUESTED, t.preemptionRequested()),
                Topics.Spec.of(TopicCatalog.DEADLETTER, t.deadLetter()),
                Topics.Spec.of(TopicCatalog.ADMISSION_CHANGELOG, t.changelog())));
    }

    public AdmissionProcessor processor() {
        return processor;
    }

    /** True while this instance owns the inputs and has rebuilt its state. */
    public boolean isDecider() {
        return loop.isDecider() && processor.isReady();
    }

    /** Next offset to process per {@code topic-partition} (committed work only). */
    public Map<String, Long> processedOffsets() {
        return loop.processedOffsets();
    }

    public long lag() {
        return loop.lag();
    }

    /** Stops the loop and waits for its thread to leave the group. */
    @Override
    public synchronized void close() {
        loop.close();
        if (thread != null) {
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
                if (thread.isAlive()) {
                    thread.interrupt(); // e.g. still waiting for a broker to create topics on
                    thread.join(Duration.ofSeconds(10).toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
