package dev.taskgov.service.support;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * How a decider sizes its transactions (admission and preemption alike): latency first by default, fewer and larger
 * transactions at a steady rate when a commit interval is set.
 */
public interface DeciderTurnsConfig {

    /**
     * The least time from the start of a turn that read records to the start of the next one, from 0 to 1 s
     * ({@link TransactionalLoop.Turns#commitInterval}). Zero (the default) decides each record as soon as it is read.
     * At a steady rate an interval makes the transactions fewer and larger: at 500 submissions per second, 20 ms cut the
     * CPU per workload of all processes by a fifth to a quarter and 50 ms by about a third, while each decision waits up
     * to the interval more (docs/benchmarks.md, "Decider settings and their measured effect"). Kafka Streams'
     * {@code commit.interval.ms} makes the same trade.
     */
    @WithDefault("0s")
    Duration commitInterval();

    /** These settings as the loop takes them; a refusal names the property ({@code <prefix>.commit-interval}). */
    static TransactionalLoop.Turns turns(DeciderTurnsConfig c, String prefix) {
        try {
            return TransactionalLoop.Turns.withCommitInterval(c.commitInterval());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ".commit-interval: " + e.getMessage(), e);
        }
    }
}
