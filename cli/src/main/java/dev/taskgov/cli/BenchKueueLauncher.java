package dev.taskgov.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Unmatched;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code taskgov bench kueue}: starts the live benchmark client, which lives in the bench module (it runs the deciders'
 * own transactional loop for its exactly-once floor, so it needs service-support, which the CLI does not carry). The
 * client runs from {@code bench/target/taskgov-bench.jar}, found beside this CLI's build, in a JVM of its own with
 * every word after {@code kueue} (its {@code --help} included); this command exits as the client does.
 */
@Command(name = "kueue",
        description = {"Replay Kueue's scheduler performance test (profiles baseline, tas, large-scale) against the running platform,",
                "or taskgov's own load profiles (throughput, depth, soak). Runs the benchmark client of the bench module",
                "(bench/target/taskgov-bench.jar); its options: taskgov bench kueue --help."})
public class BenchKueueLauncher extends CliCommand {

    static final String JAR = "bench/target/taskgov-bench.jar";

    /** Every word after {@code kueue}: the benchmark client's own options, which it parses and explains itself. */
    @Unmatched
    List<String> words = new ArrayList<>();

    @Override
    protected int run() {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-jar", benchJar().toString()));
        command.addAll(words);
        try {
            return new ProcessBuilder(command).inheritIO().start().waitFor();
        } catch (IOException e) {
            throw CliException.failed("cannot start the benchmark client (" + String.join(" ", command) + "): " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted while the benchmark client ran");
        }
    }

    /** The client's jar: {@link #JAR} under the first folder above this CLI's own build that has it. */
    static Path benchJar() {
        Path from;
        try {
            from = Path.of(BenchKueueLauncher.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException | RuntimeException e) {
            from = Path.of("").toAbsolutePath();
        }
        for (Path dir = from.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path jar = dir.resolve(JAR);
            if (Files.isRegularFile(jar)) return jar;
        }
        throw CliException.failed("the benchmark client is not built: no " + JAR + " above " + from + "; build it with "
                + "./mvnw -q -pl bench -am package -DskipTests (the taskgov wrapper does on a bench command)");
    }
}
