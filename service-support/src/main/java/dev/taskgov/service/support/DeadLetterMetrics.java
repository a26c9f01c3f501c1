package dev.taskgov.service.support;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one dead-letter counter every service exports: {@code taskgov_deadletter_records_total{topic,reason}}
 * (docs/metrics.md). Each input topic × reason starts at 0, so a dashboard sees the series before the first
 * dead letter. The {@code service} label comes from the Prometheus scrape configuration.
 */
public final class DeadLetterMetrics {

    public static final String NAME = "taskgov.deadletter.records";

    /** Why a record was refused, as a bounded label; the full reason (field and rule) is in the record. */
    public enum Reason {
        /** not the expected shape: not JSON, not an object, no value, JSON null, wrong types. */
        UNREADABLE,
        /** readable, but a field breaks a rule (missing id, unknown key, a bad amount...). */
        INVALID,
        /** processing threw something else (a bug or an unexpected state); the record is kept for replay. */
        FAILED;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }

        /** {@link UnreadableRecordException} = unreadable, other {@link IllegalArgumentException} = invalid. */
        public static Reason of(Throwable failure) {
            if (failure instanceof UnreadableRecordException) return UNREADABLE;
            if (failure instanceof IllegalArgumentException) return INVALID;
            return FAILED;
        }
    }

    private final MeterRegistry registry;
    private final Map<String, Counter> counters = new ConcurrentHashMap<>();

    /** Registers the counter at 0 for every topic the service reads and every reason. */
    public DeadLetterMetrics(MeterRegistry registry, Collection<String> inputTopics) {
        this.registry = registry;
        for (String topic : inputTopics) {
            for (Reason reason : Reason.values()) counter(topic, reason);
        }
    }

    /** One more record from {@code topic} sent to the dead-letter topic. */
    public void count(String topic, Reason reason) {
        counter(topic, reason).increment();
    }

    private Counter counter(String topic, Reason reason) {
        return counters.computeIfAbsent(topic + '\n' + reason, k -> Counter.builder(NAME)
                .description("Input records refused to the dead-letter topic, per input topic and reason")
                .tags("topic", topic, "reason", reason.label())
                .register(registry));
    }
}
