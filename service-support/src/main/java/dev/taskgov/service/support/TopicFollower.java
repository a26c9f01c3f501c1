package dev.taskgov.service.support;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.errors.InterruptException;
import org.apache.kafka.common.errors.WakeupException;
import org.jboss.logging.Logger;

/**
 * Follows topics without a consumer group, on a thread of its own, for as long as it is open: the one way a service
 * keeps a view of topics that every instance reads whole (the read replica of admission's state, topology-service's
 * holds, the access keys).
 *
 * <p>Each session opens a consumer and runs the {@link Session} on it until the follower closes. A session that fails
 * (the broker unreachable or refusing the login, a metadata timeout, a failure of the session's own code) is logged
 * and counted, and a new session starts after a pause: 1 s, doubled for each failure in a row up to 30 s, and back to
 * 1 s once a session has polled the broker successfully. A follower that gave up would leave its service serving a
 * view that no longer changes (keys never revoked, capacity never freed) until it restarts. Where a new session reads
 * from is the session's business: from the beginning, or where the last one stopped.
 *
 * <p>{@link #close} ends a session at once, in a poll, in a metadata call or in a {@link Follow#pause}: no interrupt
 * is needed, and none is sent (an interrupt would break a dead letter's send half way).
 */
public final class TopicFollower<V> implements AutoCloseable {

    private static final Logger LOG = Logger.getLogger(TopicFollower.class);
    public static final Duration FIRST_RETRY_PAUSE = Duration.ofSeconds(1);
    public static final Duration MAX_RETRY_PAUSE = Duration.ofSeconds(30);

    /** One session's reading, on a consumer the follower opened and closes. */
    @FunctionalInterface
    public interface Session<V> {
        /**
         * Reads while {@link Follow#running()}; throws to end the session (another follows after a pause), or returns
         * to end it without a failure (another follows at once, on a new consumer).
         */
        void follow(KafkaConsumer<String, V> consumer, Follow follow);
    }

    /** What a session asks of its follower. */
    public interface Follow {
        /** False once the follower is closing: the session should return. */
        boolean running();

        /** Says the session polled successfully: its failure, if one follows, starts the pauses over from the first. */
        void progressed();

        /** Waits, unless the follower closes meanwhile; returns whether it is still running. */
        boolean pause(Duration duration);
    }

    private final String name;
    private final Supplier<KafkaConsumer<String, V>> open;
    private final Session<V> session;
    private final Runnable afterFailure;
    private final Thread thread;
    private final CountDownLatch closing = new CountDownLatch(1);
    private final AtomicLong failedSessions = new AtomicLong();
    private volatile boolean running = true;
    private volatile boolean progressed;
    private volatile KafkaConsumer<String, V> consumer;

    private final Follow follow = new Follow() {
        @Override
        public boolean running() {
            return running;
        }

        @Override
        public void progressed() {
            progressed = true;
        }

        @Override
        public boolean pause(Duration duration) {
            try {
                return !closing.await(duration.toMillis(), TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
    };

    /**
     * @param name         the thread's name, and how the log names this follower
     * @param open         opens a session's consumer (e.g. {@link dev.taskgov.client.support.CompactedTopicReader#groupless})
     * @param session      reads on it
     * @param afterFailure what a failed session leaves to undo before the pause (e.g. a view no longer current)
     */
    public TopicFollower(String name, Supplier<KafkaConsumer<String, V>> open, Session<V> session, Runnable afterFailure) {
        this.name = name;
        this.open = open;
        this.session = session;
        this.afterFailure = afterFailure;
        this.thread = new Thread(this::run, name);
        this.thread.setDaemon(true);
    }

    public TopicFollower<V> start() {
        thread.start();
        return this;
    }

    /** Whether its thread runs: it ends only when the follower is closed. */
    public boolean alive() {
        return thread.isAlive();
    }

    /** Sessions that failed (and were followed by another) since the follower started. */
    public long failedSessions() {
        return failedSessions.get();
    }

    private void run() {
        Duration pause = FIRST_RETRY_PAUSE;
        while (running) {
            progressed = false;
            try (KafkaConsumer<String, V> c = open.get()) {
                consumer = c;
                // Closed while the consumer was being opened: its wakeup found no consumer to wake.
                if (!running) break;
                session.follow(c, follow);
            } catch (WakeupException | InterruptException e) {
                if (!running) break;
                LOG.warnf("%s: woken up while open (%s); starting over", name, e);
            } catch (RuntimeException e) {
                if (!running) break;
                failedSessions.incrementAndGet();
                if (progressed) pause = FIRST_RETRY_PAUSE;
                LOG.warnf("%s: reading failed (%s); starting over in %d s", name, e, pause.toSeconds());
                afterFailure.run();
                if (!follow.pause(pause)) break;
                pause = pause.multipliedBy(2).compareTo(MAX_RETRY_PAUSE) > 0 ? MAX_RETRY_PAUSE : pause.multipliedBy(2);
            } finally {
                consumer = null;
            }
        }
    }

    @Override
    public void close() {
        running = false;
        closing.countDown();
        KafkaConsumer<String, V> c = consumer;
        if (c != null) c.wakeup();
        try {
            thread.join(Duration.ofSeconds(10).toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
