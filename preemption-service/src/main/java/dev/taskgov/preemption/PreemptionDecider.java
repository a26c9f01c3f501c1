package dev.taskgov.preemption;

import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.TransactionalLoop;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * One preemption decider: the transactional loop on its own thread around a
 * {@link PreemptionProcessor}. The requests topic is the loop's group topic (one partition per
 * cluster, one owner, handled in order); the changelog is its side topic. Plain Java: the Quarkus
 * bean {@code PreemptionRuntime} owns one; tests start several against one broker.
 */
public final class PreemptionDecider implements AutoCloseable {

    /**
     * @param clientProps     Kafka client settings (bootstrap servers)
     * @param groupId         the deciders' consumer group
     * @param transactionalId stable per cluster
     * @param source          CloudEvents ce_source
     */
    public record Settings(Properties clientProps, PreemptionProcessor.Settings processor, String groupId,
                           String transactionalId, String source, Duration pollTimeout, Duration rebuildTimeout,
                           boolean createTopics) {
    }

    private final Settings settings;
    private final PreemptionProcessor processor;
    private final TransactionalLoop loop;
    private Thread thread;

    public PreemptionDecider(Settings settings, Clock clock, PreemptionObserver observer) {
        this.settings = settings;
        this.processor = new PreemptionProcessor(settings.processor(), clock, observer);
        PreemptionTopics t = settings.processor().topics();
        this.loop = new TransactionalLoop(new TransactionalLoop.Settings(settings.clientProps(), settings.groupId(),
                List.of(t.requested()), List.of(t.changelog()), settings.transactionalId(), settings.source(),
                t.deadLetter(), settings.pollTimeout(), settings.rebuildTimeout()), processor, clock);
    }

    /** Creates missing topics (when configured) and starts the loop thread. */
    public synchronized void start() {
        if (settings.createTopics()) ensureTopics(settings.clientProps(), settings.processor().topics());
        thread = new Thread(loop, "preemption-decider");
        thread.setDaemon(true);
        thread.start();
    }

    /** Creates the topics preemption uses when missing: one partition per cluster, compacted where latest-value. */
    public static void ensureTopics(Properties clientProps, PreemptionTopics t) {
        Topics.ensure(clientProps, List.of(
                new Topics.Spec(t.requested(), 1, false),
                new Topics.Spec(t.submitted(), 1, false),
                new Topics.Spec(t.admitted(), 1, false),
                new Topics.Spec(t.finished(), 1, false),
                new Topics.Spec(t.preempted(), 1, false),
                new Topics.Spec(t.quota(), 1, true),
                new Topics.Spec(t.topology(), 1, true),
                new Topics.Spec(t.status(), 1, true),
                new Topics.Spec(t.deadLetter(), 1, false),
                new Topics.Spec(t.changelog(), 1, true)));
    }

    public PreemptionProcessor processor() {
        return processor;
    }

    /** True while this instance owns the requests and has rebuilt its view. */
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
                thread.join(Duration.ofSeconds(30).toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
