package dev.taskgov.e2e;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** The processes this test starts (each logged to its own file), stopped in reverse order. */
final class ChildProcesses implements AutoCloseable {

    private final Path logs;
    private final List<Process> started = new ArrayList<>();

    ChildProcesses(Path logs) {
        this.logs = logs;
        try {
            Files.createDirectories(logs);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Starts {@code command} in the background; stdout and stderr go to {@code logs/name.log}. */
    Process start(String name, Map<String, String> env, List<String> command) {
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log(name).toFile());
        pb.environment().putAll(env);
        try {
            Process p = pb.start();
            started.add(p);
            return p;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** Runs {@code command} to its end (at most {@code timeoutSeconds}); returns exit code and output. */
    static Result run(Map<String, String> env, List<String> command, long timeoutSeconds) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().putAll(env);
        try {
            Path out = Files.createTempFile("taskgov-e2e", ".out");
            Path err = Files.createTempFile("taskgov-e2e", ".err");
            Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new IllegalStateException("timed out after " + timeoutSeconds + "s: " + command);
            }
            Result r = new Result(p.exitValue(), Files.readString(out), Files.readString(err));
            Files.deleteIfExists(out);
            Files.deleteIfExists(err);
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    record Result(int exit, String out, String err) {
    }

    Path log(String name) {
        return logs.resolve(name + ".log");
    }

    @Override
    public void close() {
        for (int i = started.size() - 1; i >= 0; i--) {
            Process p = started.get(i);
            if (!p.isAlive()) continue;
            p.destroy();
            try {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                p.destroyForcibly();
            }
        }
    }
}
