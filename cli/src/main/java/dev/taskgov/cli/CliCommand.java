package dev.taskgov.cli;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Clock;
import java.util.concurrent.Callable;

/**
 * Base of the commands that do work: turns a {@link CliException} into its message on stderr and
 * its exit code, and gives the command its output streams (picocli's, so tests can capture them).
 */
public abstract class CliCommand implements Callable<Integer> {

    /** The clock the commands read "now" from; tests replace it to get stable ages. */
    protected static Clock clock = Clock.systemUTC();

    @Spec
    CommandSpec spec;

    /** While {@link WatchOption} takes one poll's view, where {@link #out()} and {@link #err()} write instead. */
    PrintWriter capture;

    @Override
    public final Integer call() {
        try {
            return run();
        } catch (CliException e) {
            err().println("error: " + e.getMessage());
            err().flush();
            return e.exitCode();
        } finally {
            out().flush();
        }
    }

    /** Does the work; returns the exit code. */
    protected abstract int run();

    protected PrintWriter out() {
        return capture != null ? capture : spec.commandLine().getOut();
    }

    protected PrintWriter err() {
        return capture != null ? capture : spec.commandLine().getErr();
    }
}
