package dev.taskgov.preemption;

import dev.taskgov.core.events.TopicCatalog;
import dev.taskgov.service.support.Topics;
import dev.taskgov.service.support.TransactionalLoop;

import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.jboss.logging.Logger;

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

    private static final Logger LOG = Logger.getLogger(PreemptionDecider.class);
    /** Key of the changelog record that only wakes the loop up. */
    public static final String WAKE_UP_KEY = "wake-up";
    private static final Duration WAKE_UP_SPACING = Duration.ofMillis(500);

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
    private final Clock clock;
    private Thread thread;
    private Thread waker;
    private volatile boolean running = true;

    public PreemptionDecider(Settings settings, Clock clock, PreemptionObserver observer) {
        this.settings = settings;
        this.clock = clock;
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
        waker = new Thread(this::wakeOnDeadlines, "preemption-grace-waker");
        waker.setDaemon(true);
        waker.start();
    }

    /**
     * The loop acts on records only; when a grace period ends with no record arriving, this
     * thread writes a wake-up record (key {@value #WAKE_UP_KEY}) to the changelog, the loop's side
     * topic, so the next batch publishes the due evictions in a transaction like any other.
     */
    private void wakeOnDeadlines() {
        Properties props = new Properties();
        props.putAll(settings.clientProps());
        props.put(ProducerConfig.ACKS_CONFIG, "all");
        String topic = settings.processor().topics().changelog();
        long lastWakeUp = 0;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(props, new StringSerializer(), new ByteArraySerializer())) {
            while (running) {
                long now = System.nanoTime();
                if (processor.hasDueWork(clock.instant()) && now - lastWakeUp > WAKE_UP_SPACING.toNanos()) {
                    producer.send(new ProducerRecord<>(topic, WAKE_UP_KEY, (byte[]) null));
                    producer.flush();
                    lastWakeUp = now;
                }
                try {
                    Thread.sleep(settings.pollTimeout().toMillis());
                } catch (InterruptedException e) {
                    return;
                }
            }
        } catch (RuntimeException e) {
            if (running) LOG.warn("grace wake-up thread stopped", e);
        }
    }

    /** Creates the topics preemption uses when missing: one partition per cluster, compacted where latest-value. */
    public static void ensureTopics(Properties clientProps, PreemptionTopics t) {
        Topics.ensure(clientProps, List.of(
                Topics.Spec.of(TopicCatalog.PREEMPTION_REQUESTED, t.requested()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_SUBMITTED, t.submitted()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_ADMITTED, t.admitted()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_FINISHED, t.finished()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_PREEMPTED, t.preempted()),
                Topics.Spec.of(TopicCatalog.QUOTA, t.quota()),
                Topics.Spec.of(TopicCatalog.TOPOLOGY, t.topology()),
                Topics.Spec.of(TopicCatalog.WORKLOAD_STATUS, t.status()),
                Topics.Spec.of(TopicCatalog.DEADLETTER, t.deadLetter()),
                Topics.Spec.of(TopicCatalog.PREEMPTION_CHANGELOG, t.changelog())));
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
        running = false;
        if (waker != null) waker.interrupt();
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
