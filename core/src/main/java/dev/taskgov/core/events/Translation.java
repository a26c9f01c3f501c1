package dev.taskgov.core.events;

import dev.taskgov.core.model.ValidationException;
import dev.taskgov.core.model.Violation;

import java.util.List;
import java.util.function.Function;

/**
 * What a translator made of one record: the typed value, or why the record is refused. Every service
 * handles a refusal the same way: the record goes to the dead-letter topic with {@link Refused#reason()}
 * (docs/architecture.md, "Why this shape": bad input is never dropped).
 *
 * @param <T> the typed value
 */
public sealed interface Translation<T> permits Translation.Translated, Translation.Refused {

    /** How a refused record is counted: not the record at all, or a record that breaks a rule. */
    enum Kind {
        /** Not one JSON value of the expected shape (not JSON, trailing bytes, JSON null, an array for an object). */
        UNREADABLE,
        /** Readable, but a field breaks a rule (a wrong type, a missing or out-of-range value, a key that does not match). */
        INVALID
    }

    /** The record as a typed value. */
    record Translated<T>(T value) implements Translation<T> {
    }

    /**
     * A refused record.
     *
     * @param kind       how it is counted
     * @param subject    what was being read, to start the reason with (e.g. {@code quota}); null: the violations say it
     * @param violations each broken rule with its field; at least one
     */
    record Refused<T>(Kind kind, String subject, List<Violation> violations) implements Translation<T> {
        public Refused {
            violations = List.copyOf(violations);
            if (violations.isEmpty()) throw new IllegalArgumentException("a refusal names at least one violation");
        }

        /** The reason a dead letter carries: the subject, then every violation as {@code field: rule}. */
        public String reason() {
            String rules = String.join("; ", violations.stream().map(Violation::toString).toList());
            return subject == null ? rules : subject + ": " + rules;
        }

        /** The same refusal, as a translation of another type. */
        @SuppressWarnings("unchecked")
        public <U> Refused<U> cast() {
            return (Refused<U>) this;
        }
    }

    static <T> Translation<T> translated(T value) {
        return new Translated<>(value);
    }

    static <T> Translation<T> invalid(String subject, List<Violation> violations) {
        return new Refused<>(Kind.INVALID, subject, violations);
    }

    static <T> Translation<T> invalid(String field, String rule) {
        return new Refused<>(Kind.INVALID, null, List.of(new Violation(field, rule)));
    }

    /** The value, or the violations as a {@link ValidationException} (for callers that refuse by throwing, e.g. an HTTP API). */
    default T orThrow() {
        if (this instanceof Translated<T> t) return t.value();
        throw new ValidationException(((Refused<T>) this).violations());
    }

    /** The translated value mapped; a refusal stays as it is. */
    default <U> Translation<U> map(Function<T, U> f) {
        if (this instanceof Translated<T> t) return new Translated<>(f.apply(t.value()));
        return ((Refused<T>) this).cast();
    }
}
