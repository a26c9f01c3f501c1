package dev.taskgov.core.model;

/**
 * One broken input rule.
 *
 * @param field the field, as a path in the input (e.g. {@code podSets[0].count})
 * @param rule  what is wrong, for people (e.g. {@code must be >= 1, was 0})
 */
public record Violation(String field, String rule) {
    @Override
    public String toString() {
        return field + ": " + rule;
    }
}
