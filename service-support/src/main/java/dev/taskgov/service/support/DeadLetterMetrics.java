package dev.taskgov.service.support;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The dead-letter counters every service exports (docs/metrics.md): {@code taskgov_deadletter_records_total{topic,reason}}
 * counts records the dead-letter topic holds, {@code taskgov_deadletter_write_failures_total{topic}} the attempts to
 * write one that the broker refused (the input record is then not acknowledged and comes again). Each series starts
 * at 0, so a dashboard sees it before the first event. The {@code service} label comes from the Prometheus scrape
 * configuration.
 */
public final class DeadLetterMetrics {

    public static final String NAME = "taskgov.deadletter.records";
    public static final String WRITE_FAILURES = "taskgov.deadletter.write.failures";

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
            writeFailures(topic);
        }
    }

    /** A dead letter of a record from {@code topic} could not be written; the record was not acknowledged. */
    public void writeFailed(String topic) {
        writeFailures(topic).increment();
    }

    private Counter writeFailures(String topic) {
        return counters.computeIfAbsent(topic + "\nwrite-failure", k -> Counter.builder(WRITE_FAILURES)
                .description("Dead letters the broker refused (missing topic, broker refusing), per input topic; "
                        + "the input record was not acknowledged and is processed again")
                .tags("topic", topic)
                .register(registry));
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
