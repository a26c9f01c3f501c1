package dev.taskgov.cli;

import picocli.CommandLine.Option;

import java.util.List;
import java.util.function.Function;

/**
 * {@code -o, --output table|wide|json|yaml|name}, as kubectl: json and yaml print the service's
 * answer, name prints {@code kind/name} per resource (for piping), wide is the table with more columns.
 */
final class OutputOption {

    enum Format { table, wide, json, yaml, name }

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    /** json or yaml: the answer as data. */
    boolean structured() {
        return format == Format.json || format == Format.yaml;
    }

    boolean wide() {
        return format == Format.wide;
    }

    boolean names() {
        return format == Format.name;
    }

    /** The answer as pretty JSON or as YAML (no trailing newline). */
    String render(Object value) {
        return (format == Format.yaml ? Json.yaml(value) : Json.pretty(value)).stripTrailing();
    }

    /** {@code kind/name} lines for -o name; {@code nameOf} gives each item's name. */
    static <T> List<String> names(String kind, Iterable<T> items, Function<T, String> nameOf) {
        List<String> out = new java.util.ArrayList<>();
        items.forEach(i -> out.add(kind + "/" + nameOf.apply(i)));
        return out;
    }
}
