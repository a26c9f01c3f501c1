package dev.taskgov.quota.capacity;

import dev.taskgov.quota.config.QuotaServiceConfig;
import dev.taskgov.client.support.CompactedTopicReader;
import dev.taskgov.service.support.KafkaClientSecurity;
import dev.taskgov.service.support.TopicFollower;
import io.quarkus.runtime.Startup;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Whether {@link ClusterCapacity} holds every record the topology topic had when quota-service started: until it
 * does, a rule that reads capacity, the governed clusters or the instance types learned from nodes would answer from
 * a part of the cluster (a quota refused against 64 accelerators when the cluster has 104), so such answers wait
 * ({@link ClusterCapacity#requireComplete}) and readiness is DOWN ({@code TopologyReadiness}). Once complete it stays
 * complete: later records change the view as they come, as they always did.
 *
 * <p>Why not the channel consumer's position against the end offsets: SmallRye polls ahead of the
 * {@code @Incoming} method (a poll's records wait in its queue, up to {@code max.poll.records} times
 * {@code max-queue-size-factor}), so the position counts records the view does not hold yet; and it drops a poll
 * that returned no record, one that only stepped over transaction markers, so nothing downstream sees the position
 * pass them. What the view holds is what {@link TopologyConsumer} handled ({@link #handled}). What it must hold is
 * learned once at the start by a reader of its own (group-less; read_committed, as the channel): it reads the topic
 * to its end offsets, its position stepping over markers, and notes per partition the offset after the last record it
 * was given ({@link ReadTargets}). That reads the topic a second time, once: it is one record per node.
 */
@Startup
@ApplicationScoped
public class TopologyCatchUp {

    private static final Logger LOG = Logger.getLogger(TopologyCatchUp.class);
    /** How long one attempt at reading the topic to its end may take before it is tried again. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(30);

    @Inject
    QuotaServiceConfig config;

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrapServers;

    /** Per partition, the offset after the last record the channel handled; no longer kept once complete. */
    private final Map<Integer, Long> handled = new ConcurrentHashMap<>();
    private final AtomicBoolean complete = new AtomicBoolean();
    private final CountDownLatch closing = new CountDownLatch(1);
    private volatile ReadTargets targets;
    /** Why the targets are not known yet, once an attempt at reading them failed. */
    private volatile String targetsProblem;
    private long started;

    @PostConstruct
    void start() {
        started = System.nanoTime();
        // Its own thread: the broker may be slow or away at the start, and the service starts all the same.
        Thread reader = new Thread(this::learnTargets, "topology-catch-up");
        reader.setDaemon(true);
        reader.start();
    }

    @PreDestroy
    void stop() {
        closing.countDown();
    }

    /** The channel handled the record at this offset (whether it changed the view or was refused). */
    void handled(int partition, long offset) {
        if (complete.get()) return;
        handled.merge(partition, offset + 1, Math::max);
        ReadTargets t = targets;
        if (t != null && offset + 1 >= t.target(partition)) evaluate(t);
    }

    /** Null once the view holds every record the topology topic had at the start; until then, why not. */
    public String notReady() {
        if (complete.get()) return null;
        ReadTargets t = targets;
        if (t == null) {
            String problem = targetsProblem;
            return problem != null ? problem : "reading " + topic() + " to learn its end offsets as of the start";
        }
        String behind = evaluate(t);
        return behind == null ? null : "reading " + topic() + " to its end as of the start: " + behind;
    }

    /** Latches completion when no partition is behind; returns which are. */
    private String evaluate(ReadTargets t) {
        String behind = t.behind(handled);
        if (behind == null && complete.compareAndSet(false, true)) {
            handled.clear();
            LOG.infof("read %s to its end as of the start in %d ms: capacity and governed clusters are complete",
                    topic(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started));
        }
        return behind;
    }

    private void learnTargets() {
        Properties props = KafkaClientSecurity.client(bootstrapServers, "quota-service-topology-catch-up");
        // Paused as a TopicFollower pauses between failed sessions.
        Duration pause = TopicFollower.FIRST_RETRY_PAUSE;
        while (closing.getCount() > 0) {
            try {
                Map<Integer, Long> lastRecordEnds = new HashMap<>();
                // A topic that does not exist yet counts as empty: nothing was published before the start.
                CompactedTopicReader.readAll(props, List.of(topic()), READ_TIMEOUT,
                        r -> lastRecordEnds.merge(r.partition(), r.offset() + 1, Math::max));
                ReadTargets t = ReadTargets.of(lastRecordEnds);
                targets = t;
                evaluate(t);
                return;
            } catch (RuntimeException e) {
                targetsProblem = "cannot read " + topic() + " to learn its end offsets as of the start (" + e.getMessage()
                        + "); retrying";
                LOG.warnf("%s; next try in %s", targetsProblem, pause);
                try {
                    if (closing.await(pause.toMillis(), TimeUnit.MILLISECONDS)) return;
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
                Duration doubled = pause.multipliedBy(2);
                pause = doubled.compareTo(TopicFollower.MAX_RETRY_PAUSE) > 0 ? TopicFollower.MAX_RETRY_PAUSE : doubled;
            }
        }
    }

    private String topic() {
        return config.topics().topology();
    }
}
