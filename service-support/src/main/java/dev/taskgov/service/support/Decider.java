package dev.taskgov.service.support;

import java.time.Duration;
import java.util.Map;
import java.util.Set;

/**
 * One decider instance: a {@link TransactionalLoop} on its own daemon thread, and what every decider tells about that
 * loop (the partitions it owns, how far it got). Plain Java: admission's and preemption's deciders extend it with
 * their processors; their Quarkus beans own one each, tests start several against one broker.
 */
public abstract class Decider implements AutoCloseable {

    protected final TransactionalLoop loop;
    private final String threadName;
    private Thread thread;

    protected Decider(TransactionalLoop loop, String threadName) {
        this.loop = loop;
        this.threadName = threadName;
    }

    /** Starts the loop's thread, which runs {@code first} (e.g. creating missing topics) before the loop. */
    protected final synchronized void startLoop(Runnable first) {
        thread = new Thread(() -> {
            first.run();
            loop.run();
        }, threadName);
        thread.setDaemon(true);
        thread.start();
    }

    /** The partition numbers of the inputs this instance owns. */
    public Set<Integer> ownedPartitions() {
        return loop.ownedPartitions();
    }

    /** Next offset to process per {@code topic-partition} (committed work only). */
    public Map<String, Long> processedOffsets() {
        return loop.processedOffsets();
    }

    public long lag() {
        return loop.lag();
    }

    /**
     * Stops the loop and waits for its thread to leave the group; a thread still running after 10 s (e.g. still waiting
     * for a broker to create topics on) is interrupted and waited for up to 20 s more.
     */
    @Override
    public synchronized void close() {
        loop.close();
        if (thread != null) {
            try {
                thread.join(Duration.ofSeconds(10).toMillis());
                if (thread.isAlive()) {
                    thread.interrupt();
                    thread.join(Duration.ofSeconds(20).toMillis());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
