package dev.taskgov.cli;

import picocli.CommandLine.Option;

/** {@code -o, --output json|table}. */
final class OutputOption {

    enum Format { table, json }

    @Option(names = {"-o", "--output"}, paramLabel = "FORMAT", defaultValue = "table",
            description = "Output format: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE}).")
    Format format;

    boolean json() {
        return format == Format.json;
    }
}
