package dev.taskgov.service.support;

import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;

/**
 * What every decider's meters have besides their own: the registry, and the dead-letter counters of the topics the
 * decider reads ({@link DeadLetterMetrics}), which its processors feed through the two observer methods here.
 */
public abstract class DeciderMetrics {

    protected final MeterRegistry registry;
    private final DeadLetterMetrics deadLetters;

    /** @param inputTopics the topics the decider reads: their dead-letter counters start at 0 */
    protected DeciderMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.registry = registry;
        this.deadLetters = new DeadLetterMetrics(registry, inputTopics);
    }

    /** A record of {@code topic} went to the dead-letter topic. */
    public void deadLettered(String topic, DeadLetterMetrics.Reason reason) {
        deadLetters.count(topic, reason);
    }

    /** The dead letter of a record of {@code topic} could not be written; the record comes again. */
    public void deadLetterWriteFailed(String topic) {
        deadLetters.writeFailed(topic);
    }
}
