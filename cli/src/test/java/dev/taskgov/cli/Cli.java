package dev.taskgov.cli;

import dev.taskgov.client.support.auth.ProfileFile;

import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs {@code taskgov} in this JVM, as the process would (the same command tree), capturing stdout and stderr. */
final class Cli {

    record Result(int exit, String out, String err) {
    }

    /** The key every command signs with: a test profile file ([admin]), as the local runtime writes one. */
    static final ProfileFile.Credentials KEY = new ProfileFile.Credentials("admin", "TGAKCLITESTKEY000001", "cli-test-secret");

    static {
        try {
            java.nio.file.Path file = java.nio.file.Files.createTempDirectory("taskgov-cli-test").resolve("credentials");
            ProfileFile.write(file, KEY);
            System.setProperty("taskgov.profile.file", file.toString());
            // No cluster context unless a test sets one (never the developer's own ~/.taskgov/context).
            if (System.getProperty("taskgov.context") == null) System.setProperty("taskgov.context", file.resolveSibling("context").toString());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private Cli() {
    }

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = TaskgovMain.commandLine(args);
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute(args);
        return new Result(exit, out.toString(), err.toString());
    }
}
