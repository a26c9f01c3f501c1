package dev.taskgov.service.support;

import io.smallrye.config.WithDefault;

import java.time.Duration;

/**
 * How a decider sizes its transactions (admission and preemption alike): a record after a quiet spell, and a trickle,
 * decided as soon as it is read; fewer and larger transactions once records come at a steady rate.
 */
public interface DeciderTurnsConfig {

    /**
     * The longest a turn waits to gather records into one transaction, from 0 to 1 s
     * ({@link TransactionalLoop.Turns#commitInterval}): while records come at {@link #commitIntervalFromRate()} or
     * faster, a turn starts no sooner than this long after the last one. At 500 submissions per second an interval
     * makes the transactions fewer and larger, for less CPU per workload in every process, while each decision waits up
     * to the interval more (docs/benchmarks.md, "Decider settings and their measured effect"). Kafka Streams'
     * {@code commit.interval.ms} makes the same trade, for every record. Zero decides each record as soon as it is read.
     */
    @WithDefault("0.05s")
    Duration commitInterval();

    /**
     * The rate, in records per second read from the decider's input topics (for admission: submissions, finishes, evictions, pods-ready reports),
     * from which turns wait out the commit interval ({@link TransactionalLoop.Turns#batchFromRate}, the rule in
     * {@link CommitPacer}); below it each turn starts as soon as records are there. 0 makes the interval fixed.
     */
    @WithDefault("500")
    int commitIntervalFromRate();

    /** These settings as the loop takes them; a refusal names the property. */
    static TransactionalLoop.Turns turns(DeciderTurnsConfig c, String prefix) {
        if (c.commitIntervalFromRate() < 0) {
            throw new IllegalArgumentException(prefix + ".commit-interval-from-rate: the rate from which turns batch must be "
                    + "zero or more records per second, not " + c.commitIntervalFromRate());
        }
        try {
            return TransactionalLoop.Turns.withCommitInterval(c.commitInterval(), c.commitIntervalFromRate());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(prefix + ".commit-interval: " + e.getMessage(), e);
        }
    }
}
