package dev.taskgov.core.model;

import java.util.List;
import java.util.stream.Collectors;

/** Input that breaks one or more rules; each {@link Violation} names the field and the rule. */
public class ValidationException extends RuntimeException {
    private final transient List<Violation> violations;

    public ValidationException(List<Violation> violations) {
        super(violations.stream().map(Violation::toString).collect(Collectors.joining("; ")));
        this.violations = List.copyOf(violations);
    }

    public ValidationException(String field, String rule) {
        this(List.of(new Violation(field, rule)));
    }

    public List<Violation> violations() {
        return violations;
    }
}
