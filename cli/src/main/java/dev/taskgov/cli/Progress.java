package dev.taskgov.cli;

import java.io.PrintStream;

/**
 * A one-line progress display for long commands, redrawn in place on stderr, and only when stderr
 * is a terminal (so pipes, files and CI logs get the command's output and nothing else).
 */
final class Progress implements AutoCloseable {

    private final PrintStream err;
    private final boolean enabled;
    private final String task;
    private int lastWidth;

    private Progress(PrintStream err, boolean enabled, String task) {
        this.err = err;
        this.enabled = enabled;
        this.task = task;
    }

    /** On stderr when the process runs in a terminal; a no-op otherwise. */
    static Progress onTerminal(String task) {
        return new Progress(System.err, System.console() != null && !"dumb".equals(System.getenv("TERM")), task);
    }

    /** Shows {@code done} of {@code total} (total <= 0: unknown) and a short note. */
    void update(long done, long total, String note) {
        if (!enabled) return;
        StringBuilder line = new StringBuilder(task).append(' ');
        if (total > 0) {
            int width = 24;
            int filled = (int) Math.min(width, done * width / total);
            line.append('[').append("#".repeat(filled)).append(" ".repeat(width - filled)).append("] ")
                    .append(done).append('/').append(total);
        } else {
            line.append(done);
        }
        if (note != null && !note.isEmpty()) line.append("  ").append(note);
        String s = line.length() > 110 ? line.substring(0, 110) : line.toString();
        err.print("\r" + s + " ".repeat(Math.max(0, lastWidth - s.length())));
        err.flush();
        lastWidth = s.length();
    }

    @Override
    public void close() {
        if (enabled && lastWidth > 0) {
            err.print("\r" + " ".repeat(lastWidth) + "\r");
            err.flush();
        }
    }
}
