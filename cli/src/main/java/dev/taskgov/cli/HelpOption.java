package dev.taskgov.cli;

import picocli.CommandLine.Option;

/**
 * {@code -h, --help} alone, for commands whose own {@code --version} means something else (a
 * ComputeQuotaVersion, a hyp-pytorch-job template version): picocli's standard help mixin would
 * also add its {@code -V, --version}, which then clashes with theirs.
 */
final class HelpOption {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;
}
