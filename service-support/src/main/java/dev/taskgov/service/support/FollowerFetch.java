package dev.taskgov.service.support;

import org.apache.kafka.clients.consumer.ConsumerConfig;

import java.time.Duration;
import java.util.Properties;

/**
 * How a reader that decides nothing fetches (topology-service's view of the workload topics, admission-service's read
 * replica): in batches, the broker answering when {@value #MIN_BYTES} bytes wait or the wait is over, rather than
 * as soon as anything was committed. At a steady rate every small transaction otherwise wakes each such reader for a
 * fetch of a few records, and answering fetches is most of the broker's CPU (docs/benchmarks.md, "Decider
 * settings and their measured effect"). What they serve is then up to the wait older; the deciders and the clients waiting for
 * a decision fetch as before.
 */
public final class FollowerFetch {

    /** The longest wait: longer would make a reader's view visibly stale, and a close wait for its fetch. */
    public static final Duration MAX_WAIT = Duration.ofSeconds(1);
    /** Enough that the wait, not the bytes, ends a fetch at the rates the platform serves (1 MiB). */
    public static final int MIN_BYTES = 1 << 20;

    private FollowerFetch() {
    }

    /**
     * {@code clientProps} with fetches batched by {@code wait}; zero leaves Kafka's defaults (each fetch answered as
     * soon as a record is there). A wait outside 0 to {@link #MAX_WAIT} is refused naming {@code property}.
     */
    public static Properties batched(Properties clientProps, Duration wait, String property) {
        if (wait.isNegative() || wait.compareTo(MAX_WAIT) > 0) {
            throw new IllegalArgumentException(property + ": the fetch wait must be from 0 to " + MAX_WAIT.toMillis()
                    + " ms, not " + wait.toMillis() + " ms");
        }
        Properties props = new Properties();
        props.putAll(clientProps);
        if (!wait.isZero()) {
            props.put(ConsumerConfig.FETCH_MIN_BYTES_CONFIG, MIN_BYTES);
            props.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, (int) wait.toMillis());
        }
        return props;
    }
}
