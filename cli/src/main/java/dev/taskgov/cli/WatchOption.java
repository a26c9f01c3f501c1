package dev.taskgov.cli;

import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.function.IntSupplier;

/**
 * {@code -w, --watch}, as {@code kubectl get -w}: poll every {@code --watch-interval} and print the
 * view again when it changed, until Ctrl-C (the JVM's default SIGINT handling ends the process, exit 130)
 * or, for scripts and tests, after {@code --watch-count} polls. On a terminal each change redraws the
 * screen; piped, each changed view follows the last after a blank line. A service that cannot be
 * reached for a poll is shown as that poll's view and the watch goes on (it may be restarting); bad
 * input ends the watch at once.
 */
final class WatchOption {

    /** Clears a terminal and homes the cursor (ANSI), so the new view replaces the old one. */
    private static final String CLEAR_SCREEN = "\033[H\033[2J";

    @Option(names = {"-w", "--watch"}, description = "Poll and print again on every change, until Ctrl-C.")
    boolean watch;

    @Option(names = "--watch-interval", paramLabel = "DURATION", defaultValue = "2s",
            description = "Time between polls with --watch, e.g. 2s, 1m, 0 (default ${DEFAULT-VALUE}).")
    String interval;

    @Option(names = "--watch-count", paramLabel = "N", description = "With --watch, stop after N polls (default: until Ctrl-C).")
    Integer count;

    /** Runs {@code once} (which writes to {@code command}'s out), or watches it. */
    int run(CliCommand command, IntSupplier once) {
        if (!watch) return once.getAsInt();
        Duration pause = DemoCommand.parseDuration(interval, "--watch-interval");
        if (count != null && count < 1) throw CliException.invalid("--watch-count: must be at least 1, was " + count);
        boolean terminal = System.console() != null;
        PrintWriter out = command.out();
        String last = null;
        for (int poll = 0; count == null || poll < count; poll++) {
            if (poll > 0) pause(pause);
            String view = capture(command, once);
            if (view.equals(last)) continue;
            if (terminal) out.print(CLEAR_SCREEN);
            else if (last != null) out.println();
            out.print(view);
            out.flush();
            last = view;
        }
        return 0;
    }

    /** One poll's view: what {@code once} prints, or the error that stopped it (bad input ends the watch). */
    private static String capture(CliCommand command, IntSupplier once) {
        StringWriter view = new StringWriter();
        command.capture = new PrintWriter(view);
        try {
            once.getAsInt();
        } catch (CliException e) {
            if (e.exitCode() == CliException.INVALID_INPUT) throw e;
            command.capture.println("error: " + e.getMessage());
        } finally {
            command.capture.flush();
            command.capture = null;
        }
        return view.toString();
    }

    private static void pause(Duration d) {
        if (d.isZero()) return;
        try {
            Thread.sleep(d.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw CliException.failed("interrupted");
        }
    }
}
