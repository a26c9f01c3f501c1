package dev.taskgov.cli;

import picocli.CommandLine.Command;

/** {@code taskgov bench}: live benchmarks against a running platform. */
@Command(name = "bench", mixinStandardHelpOptions = true, subcommands = BenchKueueLauncher.class,
        description = "Live benchmarks against the running platform (see docs/benchmarks.md).")
public class BenchCommand {
}
